/**
 * `convert openapi` on an account's own item whose read is undescribed but
 * whose update answers the account. An Express API documented by
 * swagger-jsdoc, measured by hand (a school planner on PostgreSQL), signs
 * up with `{first_name, last_name, email, password}` answering
 * `{data: {id, first_name, last_name, email}}`, reads `GET
 * /users/accounts/{id}` as `{data: object}` and answers its update `PUT
 * /users/accounts/{id}` with `{message, data: {id, email, first_name,
 * last_name, role}}`: the account. Its listing `GET /users/accounts` is an
 * administrator's (403), so the read, whose id came from that listing's
 * first entry, was skipped, and the update was sent a placeholder `1`, the
 * run's own account only on a fresh database. An item whose update answers
 * (at its top or one member down) an id and every field the sign-up sends
 * but the password is the account: its read, update and delete take the
 * id the sign-up answered.
 *
 * The stand-in runs on 127.0.0.1: accounts numbered from 41 by the server,
 * a bearer token naming the signed-in one, which alone may read or change
 * itself; the listing refused to anyone.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const text = { type: "string" };
const json = (schema: unknown) => ({ content: { "application/json": { schema } } });
const object = (properties: Record<string, unknown>, required?: string[]) => ({
  type: "object",
  ...required ? { required } : {},
  properties,
});
const account = object({ id: { type: "integer" }, first_name: text, last_name: text, email: text });
const id = [{ name: "id", in: "path", required: true, schema: { type: "integer" } }];
const bearer = [{ bearerAuth: [] }];

const document = {
  openapi: "3.0.0",
  info: { title: "Planner", version: "1" },
  components: { securitySchemes: { bearerAuth: { type: "http", scheme: "bearer" } } },
  paths: {
    "/auth/signup": {
      post: {
        tags: ["Auth"],
        requestBody: json(
          object({ first_name: text, last_name: text, email: text, password: text }),
        ),
        responses: { "201": { description: "Registered", ...json(object({ data: account })) } },
      },
    },
    "/auth/login": {
      post: {
        tags: ["Auth"],
        requestBody: json(object({ email: text, password: text })),
        responses: {
          "200": {
            description: "Signed in",
            ...json(object({ data: object({ token: text, user: account }) })),
          },
        },
      },
    },
    "/users/accounts": {
      get: { tags: ["Users"], security: bearer, responses: { "200": { description: "All" } } },
    },
    "/users/accounts/{id}": {
      get: {
        tags: ["Users"],
        security: bearer,
        parameters: id,
        responses: {
          "200": { description: "Found", ...json(object({ data: { type: "object" } })) },
        },
      },
      put: {
        tags: ["Users"],
        security: bearer,
        parameters: id,
        requestBody: json(
          object({ first_name: text, last_name: text }, ["first_name", "last_name"]),
        ),
        responses: {
          "200": {
            description: "Updated",
            ...json(object({
              message: text,
              data: object({ ...account.properties, role: text }),
            })),
          },
        },
      },
    },
  },
};

/** Accounts numbered from 41; a token names the account, which alone may read or change itself. */
function accounts() {
  const users = new Map<number, { email: string; password: string; first_name: string }>();
  let next = 40;
  return serveStandIn(async (req) => {
    const path = new URL(req.url).pathname.split("/").filter((s) => s !== "");
    if (path[1] === "signup") {
      const { first_name, last_name, email, password } = await req.json();
      const made = ++next;
      users.set(made, { email, password, first_name });
      return Response.json({ data: { id: made, first_name, last_name, email } }, { status: 201 });
    }
    if (path[1] === "login") {
      const { email, password } = await req.json();
      const found = [...users].find(([, u]) => u.email === email && u.password === password);
      if (!found) return Response.json({ error: "Invalid" }, { status: 400 });
      const user = { id: found[0], email, first_name: found[1].first_name, last_name: "x" };
      return Response.json({ data: { token: `t${found[0]}`, user } });
    }
    const who = Number(/^Bearer t(\d+)$/.exec(req.headers.get("authorization") ?? "")?.[1]);
    if (!users.has(who)) return new Response(null, { status: 401 });
    if (path.length === 2) return new Response("Access denied!", { status: 403 });
    if (Number(path[2]) !== who) return new Response("Access denied!", { status: 403 });
    const user = users.get(who)!;
    if (req.method === "PUT") {
      const { first_name, last_name } = await req.json();
      if (!first_name || !last_name) return Response.json({ error: "Missing" }, { status: 400 });
      user.first_name = first_name;
    }
    return Response.json({ message: "ok", data: { id: who, email: user.email, role: "USER" } });
  });
}

Deno.test("an item whose update answers the sign-up's fields is the account the sign-up answered", async () => {
  const { runs, summary } = await convertAndRunSuite(document, accounts(), { runs: 2 });
  for (const op of ["GET /users/accounts/{id}", "PUT /users/accounts/{id}"]) {
    const said = `{id} of ${op} ← POST /auth/signup $.json.data.id`;
    assert.ok(summary.includes(said), `${said}\n${summary}`);
  }
  assert.doesNotMatch(summary, /Fill in/);
  for (const run of runs) {
    assert.match(run.stdout, /get_users_accounts_id/, run.stdout);
    assert.doesNotMatch(
      run.stdout,
      /✘ (get|put)_users_accounts_id|○ get_users_accounts_id/,
      run.stdout,
    );
  }
});

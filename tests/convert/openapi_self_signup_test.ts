/**
 * `convert openapi` on a document whose only operation answering a token is
 * the sign-up itself: no separate login, so the account the suite signs in
 * with is the one that create makes. A TypeSpec document served by
 * fastify-openapi-glue (a todo API, measured by hand) had `POST /users`
 * take `{username, email, password}`, answer `{id, username, email, token}`
 * and document a 409 "already exists": the converter took it for a login of
 * the user's account and asked for `LOGIN_USERNAME`, `LOGIN_EMAIL` and
 * `LOGIN_PASSWORD` ("no operation registers one"), so a second run on the
 * same instance sent the same account again and was refused, skipping every
 * step after it. What says the operation makes the account, whichever shape
 * the document has: its path or name says it signs up (`/auth/register`),
 * or, not named for signing in, it makes an item with a path of its own
 * (`/accounts` beside `/accounts/{id}`), answers 201, or documents a 409
 * (the account exists). Its fields are then the run's, made unique per run,
 * and nothing is asked of the user. A login named as one (`POST /login`),
 * with no sign-up, still asks for the user's account.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const json = (schema: unknown) => ({ content: { "application/json": { schema } } });

interface Shape {
  name: string;
  path: string;
  /** Another path beside it, so the create makes an item with a path of its own. */
  item?: string;
  status: number;
  conflict: boolean;
  token: string;
}

const SHAPES: Shape[] = [
  {
    name: "a users' create documenting a 409",
    path: "/users",
    status: 200,
    conflict: true,
    token: "token",
  },
  {
    name: "a users' create answering 201",
    path: "/members",
    status: 201,
    conflict: false,
    token: "token",
  },
  {
    name: "a path naming the sign-up",
    path: "/auth/register",
    status: 200,
    conflict: false,
    token: "accessToken",
  },
  {
    name: "a create beside its item's path",
    path: "/accounts",
    item: "/accounts/{id}",
    status: 200,
    conflict: false,
    token: "jwt",
  },
];

function document(shape: Shape) {
  const answer = {
    type: "object",
    properties: {
      id: { type: "integer" },
      username: { type: "string" },
      email: { type: "string" },
      [shape.token]: { type: "string" },
    },
  };
  const responses: Record<string, unknown> = {
    [shape.status]: { description: "The account", ...json(answer) },
  };
  if (shape.conflict) responses[409] = { description: "The user already exists" };
  const paths: Record<string, unknown> = {
    [shape.path]: {
      post: {
        operationId: "Accounts_create",
        security: [{}],
        requestBody: {
          required: true,
          ...json({
            type: "object",
            required: ["username", "email", "password"],
            properties: {
              username: { type: "string", minLength: 2 },
              email: { type: "string" },
              password: { type: "string" },
            },
          }),
        },
        responses,
      },
    },
    "/notes": {
      get: {
        operationId: "Notes_list",
        responses: { 200: { description: "", ...json({ type: "array", items: {} }) } },
      },
    },
  };
  if (shape.item) {
    paths[shape.item] = {
      get: {
        operationId: "Accounts_get",
        parameters: [{ name: "id", in: "path", required: true, schema: { type: "integer" } }],
        responses: { 200: { description: "", ...json(answer) } },
      },
    };
  }
  return {
    openapi: "3.0.0",
    info: { title: "Todo App", version: "1" },
    security: [{ BearerAuth: [] }],
    components: { securitySchemes: { BearerAuth: { type: "http", scheme: "bearer" } } },
    paths,
  };
}

/** The stand-in: an account's name and email are taken once (409 after); the rest needs a token it issued. */
function standIn(shape: Shape) {
  const accounts: { username: string; email: string }[] = [];
  const tokens = new Set<string>();
  const counted = { made: 0, refused: 0, unauthorized: 0 };
  const server = serveStandIn(async (req) => {
    const path = new URL(req.url).pathname;
    if (path === shape.path && req.method === "POST") {
      const body = await req.json();
      const taken = accounts.some((a) => a.username === body.username || a.email === body.email);
      if (taken || typeof body.password !== "string" || body.password.length === 0) {
        counted.refused++;
        return Response.json({ code: "invalid-user" }, { status: 409 });
      }
      accounts.push({ username: body.username, email: body.email });
      counted.made++;
      const token = `t${accounts.length}`;
      tokens.add(token);
      const made = { id: accounts.length, username: body.username, email: body.email };
      return Response.json({ ...made, [shape.token]: token }, { status: shape.status });
    }
    const token = /^Bearer (.+)$/.exec(req.headers.get("authorization") ?? "")?.[1];
    if (!token || !tokens.has(token)) {
      counted.unauthorized++;
      return Response.json({ code: "unauthorized" }, { status: 401 });
    }
    if (path.startsWith("/accounts/")) return Response.json({ id: 1, username: "x", email: "x" });
    return Response.json([]);
  });
  return { server, counted };
}

for (const shape of SHAPES) {
  Deno.test(
    `convert openapi: a sign-up that answers the token makes the run's own account (${shape.name})`,
    async () => {
      const { server, counted } = standIn(shape);
      const { runs, summary, flows } = await convertAndRunSuite(document(shape), server, {
        runs: 2,
      });
      assert.doesNotMatch(summary, /LOGIN_/, summary);
      for (const run of runs) assert.equal(run.code, 0, summary + run.stdout + run.stderr);
      assert.deepEqual(counted, { made: 2, refused: 0, unauthorized: 0 });
      assert.doesNotMatch([...flows.values()].join("\n"), /password: password|ENV\.LOGIN/);
    },
  );
}

Deno.test("convert openapi: a login named as one, with no sign-up, still asks for the user's account", async () => {
  const doc = document({ name: "", path: "/login", status: 200, conflict: false, token: "token" });
  const server = serveStandIn(() => Response.json({ token: "t" }));
  const { summary } = await convertAndRunSuite(doc, server, { runs: 0 });
  assert.match(summary, /LOGIN_PASSWORD/, summary);
});

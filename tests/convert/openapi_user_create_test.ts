/**
 * `convert openapi`: a create of a user (a password in, the user out, its
 * static `token` among its fields) is no sign-in, found on Directus 10
 * (tests/real/directus_openapi_test.ts): `POST /users` needs the login's
 * token and takes an `email` and a `password`, and its answer, the user,
 * holds a `token`; read as a sign-in needing the document's credentials
 * (etcd's `authenticate`), it was sent the user's own account
 * (`${ENV.LOGIN_EMAIL}`), which exists (400), and the user's read, update
 * and delete never ran. A POST to a collection whose items have paths of
 * their own (`/users/{id}`) makes one of them: it sends an account of the
 * run's own.
 *
 * The stand-in runs on 127.0.0.1 and refuses a user whose email exists.
 */
import assert from "node:assert/strict";
import { convertAndRunAsUser } from "../support/openapi_login_run.ts";
import { serveStandIn } from "../support/openapi_suite.ts";
import { tokenDocument } from "../support/openapi_doc_parts.ts";

const json = (schema: unknown) => ({ content: { "application/json": { schema } } });
const text = (example: string) => ({ type: "string", example });
const user = {
  type: "object",
  properties: {
    id: { type: "string", format: "uuid" },
    email: text("admin@example.com"),
    password: { type: "string", format: "password", example: "password" },
    token: { type: "string", nullable: true },
  },
};
const ok = (schema: unknown) => ({
  "200": { description: "OK", ...json({ type: "object", properties: { data: schema } }) },
});

/** A login, and users made, read and deleted with its token. */
function document() {
  return tokenDocument({
    paths: {
      "/auth/login": {
        post: {
          operationId: "login",
          security: [],
          requestBody: json({
            type: "object",
            required: ["email", "password"],
            properties: { email: text("admin@example.com"), password: user.properties.password },
          }),
          responses: ok({ type: "object", properties: { access_token: text("eyJ...") } }),
        },
      },
      "/users": {
        post: { operationId: "createUser", requestBody: json(user), responses: ok(user) },
      },
      "/users/{id}": {
        parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
        get: { operationId: "getUser", responses: ok(user) },
        delete: { operationId: "deleteUser", responses: { "204": { description: "Gone" } } },
      },
    },
  });
}

const ACCOUNT = { email: "owner@example.org", password: "s3cret-Owner-pass" };

function cms() {
  const users = new Map([["u0", { id: "u0", ...ACCOUNT, token: null as string | null }]]);
  let next = 1;
  const refuse = (status: number, message: string) =>
    Response.json({ errors: [{ message }] }, { status });
  return serveStandIn(async (req) => {
    const { pathname } = new URL(req.url);
    const body = req.method === "POST" ? await req.json() : undefined;
    if (pathname === "/auth/login") {
      const ok = body.email === ACCOUNT.email && body.password === ACCOUNT.password;
      return ok ? Response.json({ data: { access_token: "tok-1" } }) : refuse(401, "Invalid");
    }
    if (req.headers.get("authorization") !== "Bearer tok-1") return refuse(403, "Forbidden");
    if (pathname === "/users") {
      if ([...users.values()].some((u) => u.email === body.email)) {
        return refuse(400, `Value for field "email" in collection "users" has to be unique.`);
      }
      const made = { id: `u${next++}`, email: body.email, password: "**", token: null };
      users.set(made.id, made);
      return Response.json({ data: made });
    }
    const id = pathname.slice("/users/".length);
    if (!users.has(id)) return refuse(403, "Forbidden");
    if (req.method === "DELETE") {
      users.delete(id);
      return new Response(null, { status: 204 });
    }
    return Response.json({ data: users.get(id) });
  });
}

Deno.test("convert openapi: a create of a user with a password is no sign-in; it sends an account of the run's own", async () => {
  const { flows, run, steps } = await convertAndRunAsUser(
    document(),
    cms(),
    (base) => ({ BASE_URL: base, LOGIN_EMAIL: ACCOUNT.email, LOGIN_PASSWORD: ACCOUNT.password }),
  );
  assert.equal(run.code, 0, [...flows.values()].join("\n") + run.stdout);
  const passed = steps.filter((s) => s.status === "passed").map((s) => s.name);
  for (const step of ["create_user", "get_user", "delete_user"]) {
    assert.ok(passed.includes(step), step);
  }
});

/**
 * `convert openapi` on a document whose account is made by two creates: the
 * user (`POST /users {email, firstName}`, no password) and then its
 * credentials, a create nested under the item the first made
 * (`POST /users/{email}/user-credentials {password}`), as LoopBack 4's
 * authentication tutorial app does (measured by hand). Before, no create
 * took every field of the login, so the summary asked for an account of the
 * user's (`LOGIN_EMAIL`, `LOGIN_PASSWORD`); a suite that deletes what it
 * made deleted that account on its first run, and on the second the login
 * was refused and nothing was sent. Now the two creates are the sign-up:
 * each run signs up an account of its own (the email made per run, the
 * password the second create sets) and signs in with it, so the suite runs
 * as often as the user likes against one database that refuses a duplicate.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn, type StandIn } from "../support/openapi_suite.ts";

const json = (schema: unknown) => ({ content: { "application/json": { schema } } });
const ok = (schema: unknown) => ({ "200": { description: "ok", ...json(schema) } });
const text = { type: "string" };
const user = { type: "object", properties: { email: text, firstName: text } };
const secured = [{ bearerAuth: [] }];

/** The document: sign-up in two creates, a login, a read only a signed-in user may make. */
function document() {
  return {
    openapi: "3.0.0",
    info: { title: "two creates", version: "1" },
    components: { securitySchemes: { bearerAuth: { type: "http", scheme: "bearer" } } },
    paths: {
      "/users": {
        post: { requestBody: json(user), responses: ok(user) },
        get: { security: secured, responses: ok({ type: "array", items: user }) },
      },
      "/users/{email}/user-credentials": {
        post: {
          parameters: [{ name: "email", in: "path", required: true, schema: text }],
          requestBody: json({
            type: "object",
            required: ["password"],
            properties: { userId: text, password: text },
          }),
          responses: ok({ type: "object", properties: { id: { type: "number" }, userId: text } }),
        },
      },
      "/users/login": {
        post: {
          requestBody: json({
            type: "object",
            required: ["email", "password"],
            properties: { email: { type: "string", format: "email" }, password: text },
          }),
          responses: ok({ type: "object", properties: { token: text } }),
        },
      },
    },
  };
}

/** A server that refuses an account made twice, as a database's unique key does. */
function standIn(): StandIn {
  const users = new Set<string>();
  const passwords = new Map<string, string>();
  const tokens = new Set<string>();
  return serveStandIn(async (req) => {
    const { pathname } = new URL(req.url);
    const body = req.method === "POST" ? await req.json() : {};
    const nested = /^\/users\/([^/]+)\/user-credentials$/.exec(pathname);
    if (req.method === "POST" && pathname === "/users") {
      if (users.has(body.email)) return Response.json({ error: "duplicate" }, { status: 409 });
      users.add(body.email);
      return Response.json(body);
    }
    if (req.method === "POST" && nested) {
      const email = decodeURIComponent(nested[1]);
      if (!users.has(email)) return Response.json({ error: "no user" }, { status: 404 });
      if (passwords.has(email)) return Response.json({ error: "duplicate" }, { status: 409 });
      passwords.set(email, body.password);
      return Response.json({ id: passwords.size, userId: email });
    }
    if (req.method === "POST" && pathname === "/users/login") {
      const known = passwords.get(body.email);
      if (known === undefined || known !== body.password) return Response.json({}, { status: 401 });
      const token = `t${tokens.size}`;
      tokens.add(token);
      return Response.json({ token });
    }
    const bearer = req.headers.get("authorization")?.replace(/^Bearer /, "");
    if (!tokens.has(bearer ?? "")) return Response.json({}, { status: 401 });
    return Response.json([...users].map((email) => ({ email })));
  });
}

Deno.test("convert openapi: a sign-up in two creates signs the run's own account in, run after run", async () => {
  const { summary, runs, flows } = await convertAndRunSuite(document(), standIn(), { runs: 2 });
  // No account of the user's asked for: the suite makes its own.
  assert.doesNotMatch(summary, /LOGIN_/, summary);
  // The second run on the same server passes as the first did: a fresh account each run.
  for (const run of runs) assert.equal(run.code, 0, summary + run.stdout);
  assert.doesNotMatch([...flows.values()].join("\n"), /password: (?!\$\{)/);
});

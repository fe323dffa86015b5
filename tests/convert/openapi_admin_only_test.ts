/**
 * `convert openapi`: operations the document reserves for administrators
 * are sent with an administrator's token the user gives (`ADMIN_TOKEN`), not
 * with the run's own account, and are skipped, saying so, without it.
 * Before, the run's account (an ordinary sign-up) was sent to every
 * operation its login's scheme secures, and the server refused the
 * administrators' ones 403: a NestJS auth API's `GET /auth/users` ("Get all
 * users (Admin only)", its 403 "Forbidden - Admin access required") failed
 * every run, and its super administrators' update and delete with it. The
 * document says so in three ways, each a case here: a 403 whose description
 * names an administrator, a requirement of the login's scheme listing an
 * administrator's role or scope (`bearer: [admin]`), and an `x-` member
 * naming one (`x-roles: [admin]`); then a 401 and an answer 500 whose
 * description or documented example says an administrator is required (an
 * Express API answers every error 500: `{message: "You are not ADMIN!
 * Access Restricted!"}` shown in the example of its `GET /menu/admin-menu`,
 * which the run's own account was sent, and failed). A 403 that names none
 * ("Not yours"), or a 500 naming an administrator without a restriction
 * ("Failed to create admin"), is the run's account's to call. The stand-in on 127.0.0.1 refuses an
 * ordinary account's token on the administrators' operations and counts it.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";
import { answers, signUpPaths, text } from "../support/openapi_doc_parts.ts";

const credentials = { email: { type: "string", format: "email" }, password: text };
const user = { type: "object", properties: { id: { type: "integer" }, email: text } };
const token = { type: "object", properties: { access_token: text, user } };
const forbidden = (description: string) => ({ "403": { description } });

/** An administrators' operation, said so the `how` way; `GET /users`'s, `/reports`', `/audit`'s. */
function adminRead(how: "403" | "scope" | "x-roles" | "401" | "500", schema: unknown) {
  const message = { type: "string", example: "You are not ADMIN! Access Restricted!" };
  const refused = { type: "object", properties: { message } };
  return {
    ...how === "scope" ? { security: [{ bearer: ["admin"] }] } : {},
    ...how === "x-roles" ? { "x-roles": ["admin"] } : {},
    responses: {
      ...answers(schema),
      ...how === "403" ? forbidden("Forbidden - Admin access required") : {},
      ...how === "401"
        ? { "401": { description: "Unauthorized: an admin token is required" } }
        : {},
      ...how === "500"
        ? { "500": { ...answers(refused)["200"], description: "unable to access" } }
        : {},
    },
  };
}

const document = {
  openapi: "3.0.0",
  info: { title: "admins", version: "1" },
  security: [{ bearer: [] }],
  components: { securitySchemes: { bearer: { type: "http", scheme: "bearer" } } },
  paths: {
    ...signUpPaths(credentials, token),
    "/auth/profile": {
      get: {
        responses: {
          ...answers(user),
          ...forbidden("Not yours"),
          "500": { description: "Failed to create admin" },
        },
      },
    },
    "/users": { get: adminRead("403", { type: "array", items: user }) },
    "/reports": { get: adminRead("scope", { type: "array", items: text }) },
    "/audit": { get: adminRead("x-roles", { type: "array", items: text }) },
    "/stats": { get: adminRead("401", { type: "array", items: text }) },
    "/menu/admin-menu": { get: adminRead("500", { type: "array", items: text }) },
  },
};

const ADMIN = `admin-${crypto.randomUUID()}`;
const FOR_ADMINS = new Set(["/users", "/reports", "/audit", "/stats", "/menu/admin-menu"]);

/** Accounts, their tokens, and the administrator's token `ADMIN`; what each call was answered. */
function standIn() {
  const accounts = new Map<string, { id: number; email: string; password: string }>();
  const tokens = new Map<string, string>();
  const counted = { refused: 0, byAdmin: 0, byUser: 0 };
  const signIn = (email: string) => {
    const issued = crypto.randomUUID();
    tokens.set(issued, email);
    const { password: _, ...shown } = accounts.get(email)!;
    return { access_token: issued, user: shown };
  };
  const server = serveStandIn(async (req) => {
    const at = new URL(req.url).pathname;
    if (at === "/auth/register") {
      const { email, password } = await req.json();
      if (accounts.has(email)) return new Response(null, { status: 409 });
      accounts.set(email, { id: accounts.size + 1, email, password });
      return Response.json(signIn(email), { status: 201 });
    }
    if (at === "/auth/login") {
      const { email, password } = await req.json();
      if (accounts.get(email)?.password !== password) return new Response(null, { status: 401 });
      return Response.json(signIn(email));
    }
    const sent = /^Bearer (.+)$/.exec(req.headers.get("authorization") ?? "")?.[1] ?? "";
    if (FOR_ADMINS.has(at)) {
      if (sent !== ADMIN) return counted.refused++, new Response(null, { status: 403 });
      counted.byAdmin++;
      return Response.json(at === "/users" ? [...accounts.values()].map(({ id }) => ({ id })) : []);
    }
    const me = accounts.get(tokens.get(sent) ?? "");
    if (!me) return counted.refused++, new Response(null, { status: 401 });
    counted.byUser++;
    return Response.json({ id: me.id, email: me.email });
  });
  return { server, counted };
}

Deno.test("convert openapi: the administrators' operations (a 403 naming one, an admin scope, x-roles, a 401 or 500 saying one is required) are sent with ADMIN_TOKEN, and skipped without it", async () => {
  const { server, counted } = standIn();
  const { runs, summary, flows } = await convertAndRunSuite(document, server, {
    runs: 2,
    env: [{}, { ADMIN_TOKEN: ADMIN }],
  });
  const said = /administrator[^\n]*ADMIN_TOKEN[^\n]*/.exec(summary)?.[0] ?? "";
  for (
    const op of ["GET /users", "GET /reports", "GET /audit", "GET /stats", "GET /menu/admin-menu"]
  ) {
    assert.ok(said.includes(op), summary);
  }
  assert.doesNotMatch(said, /profile/, summary);
  const all = [...flows.values()].join("\n");
  assert.match(all, /\$\{ENV\.ADMIN_TOKEN:-\}/);
  for (const run of runs) assert.equal(run.code, 0, summary + run.stdout + run.stderr);
  // Run 1 skipped them (no ADMIN_TOKEN); run 2 sent each once with it, the profile with the account.
  assert.deepEqual(counted, { refused: 0, byAdmin: 5, byUser: 2 });
  assert.match(runs[0].stdout, /skipped/);
  for (const run of runs) assert.ok(!(run.stdout + run.stderr).includes(ADMIN));
});

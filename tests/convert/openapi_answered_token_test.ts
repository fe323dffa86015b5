/**
 * `convert openapi` on a document that declares no security at all though
 * its API wants a bearer token, in the shape `@fastify/swagger` writes
 * from a Fastify app's TypeBox route schemas when the app checks the token
 * in a `preHandler` hook no schema mentions: no `securitySchemes`, no
 * `security`, and a sign-in whose only word of its token is its answer's
 * schema (`POST /auth/login` answers `{token}`, its description "Login"),
 * beside a sign-up under `/auth` that answers a `token` too. Before,
 * nothing signed in: the implied-bearer rule wanted the login's words to
 * say `token`, and the session-login rule wants an answer with no token, so
 * every users' operation was refused 401 (a real Fastify API 3 of 8). Now
 * the member the sign-in's answer shows is a bearer token sent everywhere
 * but the sign-in and the sign-up; the login is `/auth/login`, not
 * `/auth/signup` (which tied with it on `/auth` and came first); and the
 * account is the one `/auth/signup` makes, not the users' create the
 * document lists first. A sign-in whose answer shows no token is still a
 * session login.
 *
 * The stand-in runs on 127.0.0.1 and answers 401 without `Bearer t.o.k`.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const json = (schema: unknown) => ({ content: { "application/json": { schema } } });
const object = (properties: Record<string, unknown>) => ({
  type: "object",
  properties,
  required: Object.keys(properties),
  additionalProperties: false,
});
const user = object({
  id: { type: "number" },
  name: { type: "string" },
  email: { type: "string" },
});
const idParam = [{ schema: { type: "number" }, in: "path", name: "id", required: true }];
const answer = (status: string, schema?: unknown) => ({
  [status]: { description: "Default Response", ...(schema ? json(schema) : {}) },
});

/** What `@fastify/swagger` serves for a sign-up, a sign-in and a users' resource. */
function document(loginAnswer: Record<string, unknown>) {
  const fields = object({
    name: { type: "string" },
    email: { type: "string" },
    password: { type: "string" },
  });
  return {
    openapi: "3.0.0",
    info: { title: "API", description: "API", version: "0.0.1" },
    components: { schemas: {} },
    paths: {
      "/users": {
        get: { tags: ["Users"], responses: answer("200", { type: "array", items: user }) },
        post: { tags: ["Users"], requestBody: json(fields), responses: answer("201", user) },
      },
      "/users/{id}": {
        get: { tags: ["Users"], parameters: idParam, responses: answer("200", user) },
        delete: { tags: ["Users"], parameters: idParam, responses: answer("200") },
      },
      "/auth/signup": {
        post: {
          tags: ["Auth"],
          description: "Sign up",
          requestBody: json(object({
            email: { type: "string", format: "email" },
            name: { type: "string", minLength: 5 },
            password: { type: "string" },
          })),
          responses: answer(
            "201",
            object({ message: { type: "string" }, token: { type: "string" } }),
          ),
        },
      },
      "/auth/login": {
        post: {
          tags: ["Auth"],
          description: "Login",
          requestBody: json(object({
            email: { type: "string", format: "email" },
            password: { type: "string", minLength: 4 },
          })),
          responses: answer("200", object(loginAnswer)),
        },
      },
    },
  };
}

/** Sign-up and sign-in open; the users need `Bearer t.o.k`, which only the sign-in answers. */
function standIn(seen: Map<string, string | null>) {
  const accounts = new Map<string, string>();
  const users: { id: number; name: string; email: string }[] = [];
  return serveStandIn(async (req) => {
    const { pathname } = new URL(req.url);
    const auth = req.headers.get("authorization");
    seen.set(`${req.method} ${pathname}`, auth);
    if (pathname === "/auth/signup") {
      const body = await req.json();
      accounts.set(body.email, body.password);
      return Response.json({ message: "created", token: "t.o.k" }, { status: 201 });
    }
    if (pathname === "/auth/login") {
      const body = await req.json();
      if (accounts.get(body.email) !== body.password) return Response.json({}, { status: 401 });
      return Response.json({ token: "t.o.k" });
    }
    if (auth !== "Bearer t.o.k") {
      return Response.json({ error: "No token provided" }, { status: 401 });
    }
    if (req.method === "POST") {
      const { name, email } = await req.json();
      users.push({ id: users.length + 1, name, email });
      return Response.json(users.at(-1), { status: 201 });
    }
    const id = /^\/users\/(\d+)$/.exec(pathname)?.[1];
    if (req.method === "DELETE") return Response.json({});
    return Response.json(id ? users[Number(id) - 1] : users);
  });
}

Deno.test("convert openapi: a document declaring no security sends the token its sign-in's answer shows", async () => {
  const seen = new Map<string, string | null>();
  const { runs, flows, summary } = await convertAndRunSuite(
    document({ token: { type: "string" } }),
    standIn(seen),
  );
  assert.equal(seen.get("GET /users"), "Bearer t.o.k", summary + runs[0].stdout);
  assert.match(summary, /"bearer" \(http bearer\) ← POST \/auth\/login \$\.json\.token/);
  // The account is the sign-up's, not the users' create the document lists first.
  assert.match(summary, /signed in as the account POST \/auth\/signup registers/);
  assert.equal(seen.get("POST /auth/signup"), null);
  assert.equal(seen.get("POST /auth/login"), null);
  assert.equal(runs[0].code, 0, summary + runs[0].stdout);
  // The run's own account, signed up first: nothing asked but BASE_URL, no literal credential.
  assert.doesNotMatch(summary, /LOGIN_/);
  assert.doesNotMatch([...flows.values()].join("\n"), /password: (?!\$\{)/);
});

Deno.test("convert openapi: a sign-in whose answer shows no token is still a session login", async () => {
  const seen = new Map<string, string | null>();
  const { summary } = await convertAndRunSuite(
    document({ success: { type: "boolean" } }),
    standIn(seen),
  );
  assert.match(summary, /session cookie ← POST \/auth\/login/);
  assert.equal(seen.get("GET /users"), null);
});

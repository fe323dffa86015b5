/**
 * `convert openapi` on a document whose operations require an apiKey scheme
 * sent in a cookie (or, as another choice, a bearer token no operation
 * answers), beside a login answering no token: the cookie is the session
 * that login's answer sets. Found on tududi (Express, `express-session`,
 * its `swagger-jsdoc` document served at `/api-docs/swagger.json`; measured
 * by hand, see docs/real-servers.md): `cookieAuth` is `{type: apiKey, in:
 * cookie, name: connect.sid}`, "Session cookie authentication", and
 * `POST /api/v1/login {email, password}` answers `{user}` with a
 * `Set-Cookie` (the document requires the cookie of every operation, of
 * the login too, which cannot hold it yet). The summary asked for `API_KEY`, "the API key of
 * cookieAuth (cookie connect.sid)", which no user holds (the server makes
 * it at each sign-in), and the runner refused every step: 0 of 36. Such a
 * login is now read as the session login: each flow keeps a cookie jar and
 * signs in first, as the user's account (`LOGIN_EMAIL`, `LOGIN_PASSWORD`);
 * the cookie scheme is asked of nobody. A cookie scheme beside a login
 * answering a token, or no login, is read as before.
 *
 * The stand-in runs on 127.0.0.1, knows one account and refuses every call
 * but the login without the session cookie it set.
 */
import assert from "node:assert/strict";
import { convertAndRunAsUser } from "../support/openapi_login_run.ts";
import { serveStandIn } from "../support/openapi_suite.ts";

const json = (schema: unknown) => ({ content: { "application/json": { schema } } });
const SESSION = [{ cookieAuth: [] }, { BearerAuth: [] }];
const NOTE = { type: "object", properties: { uid: { type: "string" }, title: { type: "string" } } };

const DOCUMENT = {
  openapi: "3.0.0",
  info: { title: "Notes", version: "1" },
  // As tududi's: the cookie on every operation, the login's too, which cannot hold it yet.
  security: [{ cookieAuth: [] }],
  components: {
    securitySchemes: {
      cookieAuth: {
        type: "apiKey",
        in: "cookie",
        name: "connect.sid",
        description: "Session cookie authentication",
      },
      BearerAuth: { type: "http", scheme: "bearer", bearerFormat: "JWT" },
    },
  },
  paths: {
    "/api/login": {
      post: {
        requestBody: {
          required: true,
          ...json({
            type: "object",
            required: ["email", "password"],
            properties: { email: { type: "string" }, password: { type: "string" } },
          }),
        },
        responses: {
          "200": {
            description: "Successfully logged in",
            ...json({ type: "object", properties: { user: { type: "object" } } }),
          },
          "401": { description: "Invalid credentials" },
        },
      },
    },
    "/api/notes": {
      get: {
        security: SESSION,
        responses: { "200": { description: "Notes", ...json({ type: "array", items: NOTE }) } },
      },
    },
    "/api/note": {
      post: {
        security: SESSION,
        requestBody: {
          required: true,
          ...json({
            type: "object",
            required: ["title"],
            properties: { title: { type: "string" } },
          }),
        },
        responses: { "201": { description: "Created", ...json(NOTE) } },
      },
    },
  },
};

const ACCOUNT = { email: "owner@example.org", password: "s3cret-Owner-pass" };

function standIn() {
  const sessions = new Set<string>();
  const counts = { logins: 0, refused: 0 };
  const server = serveStandIn(async (req) => {
    const { pathname } = new URL(req.url);
    const body = req.method === "POST" ? await req.json().catch(() => ({})) : {};
    if (pathname === "/api/login") {
      if (body.email !== ACCOUNT.email || body.password !== ACCOUNT.password) {
        return Response.json({ error: "Invalid credentials" }, { status: 401 });
      }
      counts.logins++;
      const sid = crypto.randomUUID();
      sessions.add(sid);
      const headers = { "set-cookie": `connect.sid=${sid}; Path=/; HttpOnly` };
      return Response.json({ user: { email: body.email } }, { headers });
    }
    const sid = /connect\.sid=([^;]+)/.exec(req.headers.get("cookie") ?? "")?.[1];
    if (!sid || !sessions.has(sid)) {
      counts.refused++;
      return Response.json({ error: "Authentication required" }, { status: 401 });
    }
    if (req.method === "POST") {
      return Response.json({ uid: "n1", title: body.title }, { status: 201 });
    }
    return Response.json([]);
  });
  return { server, counts };
}

Deno.test("convert openapi: a cookie apiKey scheme beside a login answering no token is the session that login sets", async () => {
  const { server, counts } = standIn();
  const { summary, flows, run, steps } = await convertAndRunAsUser(
    DOCUMENT,
    server,
    (base) => ({ BASE_URL: base, LOGIN_EMAIL: ACCOUNT.email, LOGIN_PASSWORD: ACCOUNT.password }),
  );
  assert.ok(!/API_KEY/.test(summary), summary);
  assert.match(summary, /^ {2}LOGIN_EMAIL: /m);
  assert.match(summary, /session cookie ← POST \/api\/login/);
  assert.ok(
    [...flows.values()].every((f) => /cookie_jar: true/.test(f)),
    [...flows.values()].join("\n"),
  );
  assert.equal(run.code, 0, run.stdout + run.stderr);
  assert.ok(steps.length >= 3 && steps.every((s) => s.status === "passed"), JSON.stringify(steps));
  assert.equal(counts.refused, 0);
});

Deno.test("convert openapi: a cookie apiKey scheme with no login is still asked for", async () => {
  const doc = structuredClone(DOCUMENT) as Record<string, unknown> & typeof DOCUMENT;
  delete (doc.paths as Record<string, unknown>)["/api/login"];
  const { server } = standIn();
  const { summary } = await convertAndRunAsUser(doc, server, (base) => ({ BASE_URL: base }));
  assert.match(summary, /API_KEY: .*cookieAuth/);
});

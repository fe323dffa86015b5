/**
 * `convert openapi` on a document whose login describes no answer body at
 * all, as flasgger's docstrings write one (`200: User successfully logged
 * in`), beside an `Authorization` apiKey that says it takes a JWT. The
 * converter found no token in the login's schema, so it asked for an
 * `API_KEY` and sent the login before the register, with the register's
 * account unknown to it (a Flask bookmarks API answered 401). A sign-in by
 * its name whose answer is undescribed is now the suite's login, its token
 * read by name from the body; a renewal under it (`/token/refresh`) is sent
 * the refresh token read the same way. The stand-in on 127.0.0.1 answers
 * `{user: {access_token, refresh_token}}` and takes only what it issued.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";
import { flasggerDocument } from "../support/openapi_doc_parts.ts";

const credentials = {
  type: "object",
  required: ["email", "password"],
  properties: {
    email: { type: "string", example: "peter@example.org" },
    password: { type: "string", format: "password" },
  },
};

function document(refresh: boolean): Record<string, unknown> {
  const bearer = [{ Bearer: [] }];
  const body = (schema: unknown) => [{ name: "body", in: "body", required: true, schema }];
  return flasggerDocument("bookmarks", {
    "/user/register": {
      post: {
        summary: "Register a new user",
        parameters: body({
          ...credentials,
          properties: { ...credentials.properties, username: { type: "string" } },
        }),
        responses: { 201: { description: "registered" } },
      },
    },
    "/user/login": {
      post: {
        summary: "Authenticate a user",
        parameters: body(credentials),
        responses: { 200: { description: "User successfully logged in" } },
      },
    },
    "/user/whoami": {
      get: { security: bearer, responses: { 200: { description: "the user" } } },
    },
    ...(refresh
      ? {
        "/user/token/refresh": {
          get: { security: bearer, responses: { 200: { description: "a new access token" } } },
        },
      }
      : {}),
  });
}

/** The stand-in: accounts by email, the tokens it issued, and what it was sent. */
function standIn(seen: string[], refreshes = true) {
  const accounts = new Map<string, string>();
  const issued = { access: new Set<string>(), refresh: new Set<string>() };
  return serveStandIn(async (req) => {
    const path = new URL(req.url).pathname;
    const auth = req.headers.get("authorization") ?? "";
    seen.push(`${req.method} ${path}`);
    if (path === "/api/v1/user/register") {
      const { email, password } = await req.json();
      accounts.set(email, password);
      return Response.json({ message: "created" }, { status: 201 });
    }
    if (path === "/api/v1/user/login") {
      const { email, password } = await req.json();
      if (!accounts.has(email) || accounts.get(email) !== password) {
        return Response.json({ error: "Authentication failed" }, { status: 401 });
      }
      const n = issued.access.size;
      issued.access.add(`acc${n}`);
      issued.refresh.add(`ref${n}`);
      const user = { access_token: `acc${n}`, email };
      return Response.json({ user: refreshes ? { ...user, refresh_token: `ref${n}` } : user });
    }
    const kind = path.endsWith("/refresh") && refreshes ? issued.refresh : issued.access;
    return kind.has(auth.replace(/^Bearer /, ""))
      ? Response.json({ ok: true })
      : Response.json({ msg: "Missing or wrong token" }, { status: 422 });
  });
}

Deno.test("convert openapi: a login whose answer is undescribed signs the suite in, after its register, with BASE_URL alone", async () => {
  const seen: string[] = [];
  const { summary, runs: [run], flows } = await convertAndRunSuite(document(false), standIn(seen));
  assert.doesNotMatch(summary, /API_KEY/, summary);
  assert.equal(run.code, 0, run.stdout + run.stderr + seen.join("\n"));
  assert.ok(seen.includes("GET /api/v1/user/whoami"), seen.join("\n"));
  assert.doesNotMatch([...flows.values()].join("\n"), /Bearer [A-Za-z0-9]{3}/);
});

Deno.test("convert openapi: a renewal under an undescribed login is sent the refresh token its answer holds", async () => {
  // The renewal (flask-jwt-extended's `jwt_required(refresh=True)`) takes only the refresh token:
  // sent the access token, it answered 422.
  const seen: string[] = [];
  const { runs: [run] } = await convertAndRunSuite(document(true), standIn(seen));
  assert.equal(run.code, 0, run.stdout + run.stderr + seen.join("\n"));
  assert.ok(seen.includes("GET /api/v1/user/token/refresh"), seen.join("\n"));
});

Deno.test("convert openapi: a renewal under an undescribed login that answers no refresh token is sent its token", async () => {
  // Homebridge UI's `POST /api/auth/refresh` renews with the access token: its login answers no
  // refresh token, and a renewal that waited for one was never sent.
  const seen: string[] = [];
  const { runs: [run] } = await convertAndRunSuite(document(true), standIn(seen, false));
  assert.equal(run.code, 0, run.stdout + run.stderr + seen.join("\n"));
  assert.ok(seen.includes("GET /api/v1/user/token/refresh"), seen.join("\n"));
});

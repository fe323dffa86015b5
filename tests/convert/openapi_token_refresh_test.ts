/**
 * `convert openapi` on the shape of a NestJS boilerplate's own document
 * (`@nestjs/swagger`, measured by hand 2026-11-27, docs/real-servers.md):
 * the login answers a `token` and a `refreshToken`, and `POST /auth/refresh`
 * (bearer, no body) answers a new `token` and `refreshToken`. Both are
 * signed in with the one bearer scheme, so the refresh was sent the access
 * token, and the server, which renews only against the refresh token the
 * login issued, answered 401. An operation of no body whose answer holds the
 * login's token anew renews it: it is sent the refresh token (RFC 6749's
 * `refresh_token`, in any spelling) the login answered with.
 *
 * The stand-in below answers as that server does, on 127.0.0.1.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const bearer = [{ bearer: [] }];
const text = { type: "string" };
const json = (schema: unknown) => ({ content: { "application/json": { schema } } });
const tokens = {
  type: "object",
  properties: { token: text, refreshToken: text, tokenExpires: { type: "number" } },
  required: ["token", "refreshToken", "tokenExpires"],
};

/** The parts of the document the defect showed in, as `@nestjs/swagger` writes them. */
function refreshDocument(): Record<string, unknown> {
  const credentials = {
    type: "object",
    properties: { email: { type: "string", example: "test1@example.com" }, password: text },
    required: ["email", "password"],
  };
  const tags = ["Auth"];
  return {
    openapi: "3.0.0",
    info: { title: "API", version: "1.0" },
    paths: {
      "/api/v1/auth/email/register": {
        post: {
          tags,
          requestBody: { required: true, ...json(credentials) },
          responses: { "204": { description: "" } },
        },
      },
      "/api/v1/auth/email/login": {
        post: {
          tags,
          requestBody: { required: true, ...json(credentials) },
          responses: {
            "200": {
              description: "",
              ...json({ allOf: [tokens, { properties: { user: { type: "object" } } }] }),
            },
          },
        },
      },
      "/api/v1/auth/me": {
        get: { tags, security: bearer, responses: { "200": { description: "", ...json({}) } } },
      },
      "/api/v1/auth/refresh": {
        post: {
          tags,
          security: bearer,
          responses: { "200": { description: "", ...json(tokens) } },
        },
      },
    },
    components: {
      securitySchemes: { bearer: { type: "http", scheme: "bearer", bearerFormat: "JWT" } },
    },
  };
}

/** Access tokens open `/auth/me`; only a refresh token renews, once. */
function refreshServer(seen: string[]) {
  const accounts = new Map<string, string>();
  const access = new Set<string>();
  const refresh = new Set<string>();
  const issue = () => {
    const pair = { token: crypto.randomUUID(), refreshToken: crypto.randomUUID() };
    access.add(pair.token);
    refresh.add(pair.refreshToken);
    return { ...pair, tokenExpires: Date.now() + 900_000 };
  };
  const unauthorized = () => Response.json({ statusCode: 401 }, { status: 401 });
  return serveStandIn(async (req) => {
    const route = `${req.method} ${new URL(req.url).pathname.replace("/api/v1", "")}`;
    seen.push(route);
    const sent = req.method === "POST" ? await req.json().catch(() => ({})) : {};
    const token = req.headers.get("authorization")?.replace(/^Bearer /, "") ?? "";
    if (route === "POST /auth/email/register") {
      accounts.set(sent.email, sent.password);
      return new Response(null, { status: 204 });
    }
    if (route === "POST /auth/email/login") {
      if (accounts.get(sent.email) !== sent.password) return unauthorized();
      return Response.json({ ...issue(), user: { email: sent.email } });
    }
    if (route === "GET /auth/me") return access.has(token) ? Response.json({}) : unauthorized();
    if (route === "POST /auth/refresh") {
      if (!refresh.delete(token)) return unauthorized();
      return Response.json(issue());
    }
    return Response.json({ statusCode: 404 }, { status: 404 });
  });
}

Deno.test("convert openapi: an operation of no body answering the login's token anew is sent the login's refresh token", async () => {
  const seen: string[] = [];
  const { runs, summary, flows } = await convertAndRunSuite(refreshDocument(), refreshServer(seen));
  const [run] = runs;
  assert.equal(run.code, 0, `${summary}\n${run.stdout}\n${run.stderr}`);
  assert.ok(seen.includes("POST /auth/refresh") && seen.includes("GET /auth/me"), seen.join());
  // Never a literal: the refresh token is the login's answer, captured.
  assert.match([...flows.values()].join("\n"), /token: \$\{steps\.[a-z_0-9]+\.capture\.refresh/);
  // Summary and comment name the token sent: the refresh token, not the access token.
  assert.match(
    summary,
    /POST \/api\/v1\/auth\/refresh renews the token: sent the refresh token POST \/api\/v1\/auth\/email\/login answers \(\$\.json\.refreshToken\)/,
  );
  assert.match(
    [...flows.values()].join("\n"),
    /# "bearer" \(http bearer\): the refresh token the login POST \/api\/v1\/auth\/email\/login \(\$\.json\.refreshToken\) answers with, this operation renewing the token/,
  );
});

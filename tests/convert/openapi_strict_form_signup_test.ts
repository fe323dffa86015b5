/**
 * `convert openapi`: a login form that requires `grant_type` at a value it
 * fixes still signs in the account its sign-up makes. Found on a FastAPI
 * book library measured by hand (docs/real-servers.md): its login is
 * FastAPI's strict OAuth2 password form, which requires `grant_type`
 * beside `username` and `password` and fixes it (`pattern: password`),
 * and its sign-up `POST /api/v1/auth/register` takes `{email, password,
 * full_name}`. Every field the form requires was read as one the account
 * has, the sign-up has no `grant_type`, so no sign-up was found: the
 * summary asked for `LOGIN_USERNAME` and `LOGIN_PASSWORD`, and on a fresh
 * database nobody has an account. A field whose value the schema fixes (a
 * `const`, an `enum` of one, a pattern that is one plain word) is the
 * protocol's, not the account's: the suite now registers its account and
 * signs in with `BASE_URL` alone, the form still sending `grant_type`.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const json = (schema: unknown) => ({ content: { "application/json": { schema } } });
const bearer = [{ HTTPBearer: [] }];
const text = { type: "string" };

/** A sign-up by email, a strict OAuth2 form login, and shelves of the signed-in account. */
function document(grantType: Record<string, unknown>) {
  return {
    openapi: "3.0.2",
    info: { title: "Shelves", version: "1" },
    components: { securitySchemes: { HTTPBearer: { type: "http", scheme: "bearer" } } },
    paths: {
      "/api/auth/register": {
        post: {
          requestBody: json({
            type: "object",
            required: ["email", "password"],
            properties: { email: { type: "string", format: "email" }, password: text },
          }),
          responses: { "200": { description: "Registered", ...json({ type: "object" }) } },
        },
      },
      "/api/auth/login": {
        post: {
          requestBody: {
            content: {
              "application/x-www-form-urlencoded": {
                schema: {
                  type: "object",
                  required: ["grant_type", "username", "password"],
                  properties: {
                    grant_type: { type: "string", ...grantType },
                    username: text,
                    password: text,
                    client_id: text,
                  },
                },
              },
            },
          },
          responses: {
            "200": {
              description: "Signed in",
              ...json({ type: "object", properties: { access_token: text, token_type: text } }),
            },
          },
        },
      },
      "/api/shelves": {
        post: {
          security: bearer,
          requestBody: json({ type: "object", required: ["label"], properties: { label: text } }),
          responses: { "201": { description: "Made", ...json({ type: "object" }) } },
        },
      },
    },
  };
}

/** Knows only the accounts the run registers; the login takes a form with `grant_type=password`. */
function startServer() {
  const accounts = new Map<string, string>();
  const tokens = new Set<string>();
  let shelves = 0;
  const stand = serveStandIn(async (req) => {
    const path = new URL(req.url).pathname;
    if (path === "/api/auth/register") {
      const { email, password } = await req.json();
      accounts.set(email, password);
      return Response.json({ email });
    }
    if (path === "/api/auth/login") {
      const form = new URLSearchParams(await req.text());
      if (form.get("grant_type") !== "password") {
        return Response.json({ detail: "grant_type must be password" }, { status: 422 });
      }
      const name = form.get("username") ?? "";
      if (!accounts.has(name) || accounts.get(name) !== form.get("password")) {
        return Response.json({ detail: "Incorrect email or password" }, { status: 401 });
      }
      const token = crypto.randomUUID();
      tokens.add(token);
      return Response.json({ access_token: token, token_type: "bearer" });
    }
    if (path === "/api/shelves" && req.method === "POST") {
      const token = (req.headers.get("authorization") ?? "").replace(/^Bearer /, "");
      if (!tokens.has(token)) {
        return Response.json({ detail: "Not authenticated" }, { status: 401 });
      }
      shelves++;
      return Response.json({ id: shelves }, { status: 201 });
    }
    return Response.json({ detail: "Not Found" }, { status: 404 });
  });
  return { ...stand, made: () => shelves };
}

for (
  const [what, grantType] of [
    ["a pattern of one word", { pattern: "password" }],
    ["an anchored pattern", { pattern: "^password$" }],
    ["an enum of one", { enum: ["password"] }],
  ] as const
) {
  Deno.test(`convert openapi: a strict OAuth2 form login (${what}) signs in the account its sign-up makes`, async () => {
    const server = startServer();
    const { summary, runs } = await convertAndRunSuite(document(grantType), server, { runs: 2 });
    assert.doesNotMatch(summary, /LOGIN_USERNAME|LOGIN_PASSWORD/, summary);
    for (const run of runs) assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.equal(server.made(), 2);
  });
}

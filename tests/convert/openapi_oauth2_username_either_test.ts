/**
 * OAuth2's password request names the account `username` whatever the
 * server looks it up by (RFC 6749 fixes the field's name), so beside a
 * sign-up taking both a user name and an address (`format: email`) the
 * document does not say which of the two the login's `username` is. A
 * FastAPI job board registers `{username, email, password}` and signs in
 * with `username` holding the email: the suite sent the run's user name,
 * the login answered 401 and every flow was skipped. Sending the run's
 * email as the sign-up's user name too gives the account one identity,
 * which the login finds whichever member the server reads; unless the
 * user name's schema says an address does not fit it (a `pattern`, a
 * `format`, a `maxLength` shorter than the address).
 *
 * The stand-ins run on 127.0.0.1 and keep their accounts in memory.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const json = (schema: unknown) => ({ content: { "application/json": { schema } } });
const ok = (schema?: unknown) => ({
  "200": { description: "OK", ...(schema ? json(schema) : {}) },
});

/** A FastAPI-shaped document: a sign-up, an OAuth2 form login, a listing and a create. */
function document(username: Record<string, unknown> = { type: "string" }) {
  return {
    openapi: "3.0.2",
    info: { title: "Board", version: "1.0.0" },
    paths: {
      "/users/": {
        post: {
          tags: ["users"],
          summary: "Create User",
          requestBody: {
            required: true,
            ...json({
              type: "object",
              required: ["username", "email", "password"],
              properties: {
                username,
                email: { type: "string", format: "email" },
                password: { type: "string" },
              },
            }),
          },
          responses: ok({ type: "object", properties: { username: { type: "string" } } }),
        },
      },
      "/login/token": {
        post: {
          tags: ["login"],
          summary: "Login For Access Token",
          requestBody: {
            required: true,
            content: {
              "application/x-www-form-urlencoded": {
                schema: {
                  type: "object",
                  required: ["username", "password"],
                  properties: {
                    grant_type: { type: "string", pattern: "password" },
                    username: { type: "string" },
                    password: { type: "string" },
                  },
                },
              },
            },
          },
          responses: ok({
            type: "object",
            required: ["access_token", "token_type"],
            properties: { access_token: { type: "string" }, token_type: { type: "string" } },
          }),
        },
      },
      "/notes/": {
        get: { tags: ["notes"], security: [{ OAuth2: [] }], responses: ok() },
        post: {
          tags: ["notes"],
          summary: "Create Note",
          security: [{ OAuth2: [] }],
          requestBody: {
            required: true,
            ...json({
              type: "object",
              required: ["text"],
              properties: { text: { type: "string" } },
            }),
          },
          responses: ok(),
        },
      },
    },
    components: {
      securitySchemes: {
        OAuth2: { type: "oauth2", flows: { password: { tokenUrl: "/login/token", scopes: {} } } },
      },
    },
  };
}

/** A stand-in whose login looks the account up by `key` of what the sign-up sent. */
function standIn(key: "email" | "username", seen: string[]) {
  const accounts = new Map<string, string>();
  return serveStandIn(async (req) => {
    const { pathname } = new URL(req.url);
    seen.push(`${req.method} ${pathname}`);
    if (pathname === "/users/") {
      const body = await req.json();
      accounts.set(body[key], body.password);
      return Response.json({ username: body.username });
    }
    if (pathname === "/login/token") {
      const form = new URLSearchParams(await req.text());
      const known = accounts.get(form.get("username") ?? "");
      if (known === undefined || known !== form.get("password")) {
        return Response.json({ detail: "Incorrect username or password" }, { status: 401 });
      }
      return Response.json({ access_token: "t0k3n", token_type: "bearer" });
    }
    if (req.headers.get("authorization") !== "Bearer t0k3n") {
      return Response.json({ detail: "Not authenticated" }, { status: 401 });
    }
    return Response.json(req.method === "GET" ? [] : { text: "x" });
  });
}

for (const key of ["email", "username"] as const) {
  Deno.test(`convert openapi signs in through an OAuth2 form whose server looks up the ${key}`, async () => {
    const seen: string[] = [];
    const { runs, summary } = await convertAndRunSuite(document(), standIn(key, seen));
    assert.equal(runs[0].code, 0, runs[0].stdout + runs[0].stderr);
    assert.ok(seen.includes("POST /notes/"), seen.join(", "));
    assert.doesNotMatch(summary, /LOGIN_/);
    // An account of the user's own is given under the var the login reads: the email.
    assert.match(summary, /give its email and password in a --vars-file/);
  });
}

Deno.test("a user name whose schema an address does not fit keeps the run's user name", async () => {
  for (
    const username of [{ type: "string", pattern: "^[a-z0-9_]+$" }, {
      type: "string",
      maxLength: 12,
    }]
  ) {
    const seen: string[] = [];
    const { flows } = await convertAndRunSuite(document(username), standIn("username", seen));
    const all = [...flows.values()].join("\n");
    assert.doesNotMatch(all, /username: \$\{vars\.email\}/, JSON.stringify(username));
  }
});

/**
 * `convert openapi`: an operation that says it takes the refresh token ("Revoke a refresh
 * token, used mainly for logout") is sent the refresh token the login answers, not its access
 * token. A Flask API documented by apispec (flask-jwt-extended's `jwt_required(refresh=True)`)
 * answered its `DELETE /auth/revoke_refresh` 422 to the access token; the renewal beside it
 * (`POST /auth/refresh`, "Get an access token from a refresh token") still gets the refresh
 * token before it is revoked, and "Revoke an access token" keeps the access token.
 *
 * The stand-in runs on 127.0.0.1 and tells its two tokens apart.
 */
import assert from "node:assert/strict";
import { convertAndRunAsUser } from "../support/openapi_login_run.ts";
import { serveStandIn } from "../support/openapi_suite.ts";

const json = (schema: unknown) => ({ content: { "application/json": { schema } } });
const str = { type: "string" };
const answers = (properties: Record<string, unknown>) => ({
  "200": { description: "OK", ...json({ type: "object", properties }) },
});

/** A login answering both tokens, a renewal, and the two revokes, each saying what it takes. */
function document() {
  return {
    openapi: "3.0.2",
    info: { title: "restful_api", version: "1.0.0" },
    components: { securitySchemes: { jwt: { type: "http", scheme: "bearer" } } },
    security: [{ jwt: [] }],
    paths: {
      "/auth/login": {
        post: {
          summary: "Authenticate a user",
          security: [],
          requestBody: json({ type: "object", properties: { username: str, password: str } }),
          responses: answers({ access_token: str, refresh_token: str }),
        },
      },
      "/auth/refresh": {
        post: {
          summary: "Get an access token",
          description: "Get an access token from a refresh token",
          responses: answers({ access_token: str }),
        },
      },
      "/auth/revoke_access": {
        delete: { summary: "Revoke an access token", responses: answers({ message: str }) },
      },
      "/auth/revoke_refresh": {
        delete: {
          summary: "Revoke a refresh token",
          description: "Revoke a refresh token, used mainly for logout",
          responses: answers({ message: str }),
        },
      },
    },
  };
}

function standIn() {
  const got: Record<string, string> = {};
  const revoked = new Set<string>();
  const server = serveStandIn(async (req) => {
    const { pathname } = new URL(req.url);
    if (pathname === "/auth/login") {
      const body = await req.json().catch(() => ({}));
      if (body.username !== "admin" || body.password !== "s3cret") {
        return Response.json({ message: "Unauthorized" }, { status: 401 });
      }
      return Response.json({ access_token: "acc-1", refresh_token: "ref-1" });
    }
    const token = (req.headers.get("authorization") ?? "").replace(/^Bearer /, "");
    got[pathname] = token;
    const wants = pathname === "/auth/revoke_access" ? "acc-1" : "ref-1";
    if (token !== wants || revoked.has(token)) {
      return Response.json({ msg: "Only refresh tokens are allowed" }, { status: 422 });
    }
    if (pathname.startsWith("/auth/revoke")) revoked.add(token);
    return Response.json(
      pathname === "/auth/refresh" ? { access_token: "acc-2" } : { message: "ok" },
    );
  });
  return { server, got };
}

Deno.test("convert openapi: an operation saying it takes the refresh token is sent it", async () => {
  const { server, got } = standIn();
  const { flows, steps } = await convertAndRunAsUser(document(), server, (base) => ({
    BASE_URL: base,
    LOGIN_USERNAME: "admin",
    LOGIN_PASSWORD: "s3cret",
  }));
  const flow = [...flows.values()].join("\n");
  assert.deepEqual(got, {
    "/auth/refresh": "ref-1",
    "/auth/revoke_access": "acc-1",
    "/auth/revoke_refresh": "ref-1",
  }, flow);
  assert.ok(steps.every((s) => s.status === "passed"), flow + JSON.stringify(steps));
});

/**
 * A call made with the login's token whose body is a password alone asks
 * the signed-in account to confirm itself (re-authentication): Homebridge
 * UI's `POST /api/users/otp/deactivate {password}` ("Deactivate 2FA setup
 * for the current user.") was sent the run's made-up password (403). When
 * the login signs in as the user's account (no operation registers one),
 * that password is `LOGIN_PASSWORD`, never a literal. A body holding a
 * second password (`{currentPassword, newPassword}`: it would change the
 * account every flow signs in with) or a name besides (a user's create) is
 * made as before.
 */
import assert from "node:assert/strict";
import { convertAndRunAsUser } from "../support/openapi_login_run.ts";
import { serveStandIn } from "../support/openapi_suite.ts";

const json = (schema: unknown) => ({ content: { "application/json": { schema } } });
const text = { type: "string" };
const object = (properties: Record<string, unknown>) => ({
  type: "object",
  required: Object.keys(properties),
  properties,
});

const DOC = {
  openapi: "3.0.0",
  info: { title: "Hub", version: "1" },
  components: { securitySchemes: { bearer: { type: "http", scheme: "bearer" } } },
  paths: {
    "/auth/login": {
      post: {
        requestBody: json(object({ username: text, password: text })),
        responses: { "201": { description: "", ...json(object({ access_token: text })) } },
      },
    },
    "/users/otp/deactivate": {
      post: {
        summary: "Deactivate 2FA for the current user.",
        security: [{ bearer: [] }],
        requestBody: json(object({ password: text })),
        responses: { "201": { description: "" } },
      },
    },
    "/users/change-password": {
      post: {
        security: [{ bearer: [] }],
        requestBody: json(object({ currentPassword: text, newPassword: text })),
        responses: { "201": { description: "" } },
      },
    },
  },
};

const ACCOUNT = { username: "owner", password: "s3cret-Owner-pass" };

Deno.test("convert openapi: a password alone in a signed-in call's body is the signed-in account's", async () => {
  const sent: Record<string, unknown> = {};
  const server = serveStandIn(async (req) => {
    const path = new URL(req.url).pathname;
    const body = await req.json().catch(() => ({}));
    sent[path] = body;
    if (path === "/auth/login") {
      const ok = body.username === ACCOUNT.username && body.password === ACCOUNT.password;
      return ok
        ? Response.json({ access_token: "tok-1" }, { status: 201 })
        : new Response("no", { status: 401 });
    }
    if (req.headers.get("authorization") !== "Bearer tok-1") {
      return new Response("no", { status: 401 });
    }
    if (path === "/users/otp/deactivate") {
      return body.password === ACCOUNT.password
        ? Response.json({}, { status: 201 })
        : new Response("Forbidden", { status: 403 });
    }
    return Response.json({}, { status: 201 });
  });
  const { run, flows } = await convertAndRunAsUser(
    DOC,
    server,
    (base) => ({
      BASE_URL: base,
      LOGIN_USERNAME: ACCOUNT.username,
      LOGIN_PASSWORD: ACCOUNT.password,
    }),
  );
  assert.equal(run.code, 0, run.stdout);
  const change = sent["/users/change-password"] as Record<string, string>;
  // The account's password is never changed, nor sent as the current one beside a new one.
  assert.notEqual(change.newPassword, ACCOUNT.password);
  assert.notEqual(change.currentPassword, ACCOUNT.password);
  assert.ok(![...flows.values()].join("\n").includes(ACCOUNT.password));
});

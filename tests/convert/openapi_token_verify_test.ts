/**
 * `convert openapi`: a body member named `token` is sent the login's token. A Django REST
 * framework API's own document (simplejwt under djoser's names) has `POST /jwt/create/` answer
 * `{refresh, access}` and `POST /jwt/verify/` take `{token}`; the verify was sent a made-up
 * `token-…` and refused 401, though the only token the material names is the one its login
 * answers. A member named otherwise (`code`) keeps its made-up value.
 *
 * The stand-in runs on 127.0.0.1 and knows only the tokens it issued.
 */
import assert from "node:assert/strict";
import { convertAndRunAsUser } from "../support/openapi_login_run.ts";
import { serveStandIn } from "../support/openapi_suite.ts";

const json = (schema: unknown) => ({ content: { "application/json": { schema } } });
const str = { type: "string" };
const takes = (name: string) =>
  json({ type: "object", properties: { [name]: str }, required: [name] });
const ok = (schema?: unknown) => ({
  "200": { description: "OK", ...(schema ? json(schema) : {}) },
});

/** A login answering an access and refresh pair, a verify taking `token`, a check taking `code`. */
function document() {
  return {
    openapi: "3.0.2",
    info: { title: "Blog", version: "v1" },
    components: { securitySchemes: { jwt: { type: "http", scheme: "bearer" } } },
    security: [{ jwt: [] }],
    paths: {
      "/api/v1/jwt/create/": {
        post: {
          operationId: "create token",
          security: [],
          requestBody: json({
            type: "object",
            properties: { username: str, password: { type: "string", writeOnly: true } },
            required: ["username", "password"],
          }),
          responses: ok({ type: "object", properties: { refresh: str, access: str } }),
        },
      },
      "/api/v1/jwt/verify/": {
        post: { operationId: "verify token", requestBody: takes("token"), responses: ok() },
      },
      "/api/v1/codes/check/": {
        post: { operationId: "check code", requestBody: takes("code"), responses: ok() },
      },
    },
  };
}

const ACCOUNT = { username: "owner1", password: "s3cret-Owner-pass" };

function standIn() {
  const issued = new Set<string>();
  const sent: Record<string, string> = {};
  const server = serveStandIn(async (req) => {
    const { pathname } = new URL(req.url);
    const body = await req.json().catch(() => ({}));
    if (pathname === "/api/v1/jwt/create/") {
      if (body.username !== ACCOUNT.username || body.password !== ACCOUNT.password) {
        return Response.json({ detail: "No active account" }, { status: 401 });
      }
      const access = `acc-${issued.size + 1}`;
      issued.add(access);
      return Response.json({ refresh: `ref-${issued.size}`, access });
    }
    if (pathname === "/api/v1/jwt/verify/") {
      sent.token = body.token;
      return issued.has(body.token) ? Response.json({}) : Response.json({}, { status: 401 });
    }
    sent.code = body.code;
    return Response.json({});
  });
  return { server, sent };
}

Deno.test("convert openapi: a body member named token is sent the login's token, another name is not", async () => {
  const { server, sent } = standIn();
  const { flows, steps } = await convertAndRunAsUser(
    document(),
    server,
    (base) => ({
      BASE_URL: base,
      LOGIN_USERNAME: ACCOUNT.username,
      LOGIN_PASSWORD: ACCOUNT.password,
    }),
  );
  const flow = [...flows.values()].join("\n");
  const verify = steps.find((s) => s.name === "verify_token");
  assert.equal(verify?.status, "passed", flow + JSON.stringify(steps));
  assert.equal(sent.token, "acc-1");
  assert.ok(sent.code !== undefined && !sent.code.startsWith("acc-"), JSON.stringify(sent));
});

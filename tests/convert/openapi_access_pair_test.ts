/**
 * `convert openapi` on a document whose login answers an `access` and a
 * `refresh` token (simplejwt's `TokenObtainPair`, as drf-spectacular
 * describes it: both read-only strings): no member was named like a token
 * (`token`, `access_token`), so the converter asked for an `API_TOKEN` and
 * sent the refresh a made-up value (a Django task manager answered 401). The
 * pair is RFC 6749's access and refresh token: `access` beside `refresh` in a
 * login's answer is now its token. Its register sends the account's email
 * though the document marks it optional (Django's `create_user(email=…)`
 * reads it: 500 without). The stand-in on 127.0.0.1 takes only the tokens it
 * issued.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const json = (schema: unknown) => ({ content: { "application/json": { schema } } });
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const optional = [{ jwtAuth: [] }, {}];

function document(email = false): Record<string, unknown> {
  return {
    openapi: "3.0.3",
    info: { title: "tasks", version: "1" },
    paths: {
      "/api/register/": {
        post: {
          security: optional,
          requestBody: { required: true, ...json(ref("Registration")) },
          responses: { 201: { description: "", ...json(ref("Registration")) } },
        },
      },
      "/api/token/": {
        post: {
          requestBody: { required: true, ...json(ref("TokenObtainPair")) },
          responses: { 200: { description: "", ...json(ref("TokenObtainPair")) } },
        },
      },
      "/api/token/refresh/": {
        post: {
          requestBody: { required: true, ...json(ref("TokenRefresh")) },
          responses: { 200: { description: "", ...json(ref("TokenRefresh")) } },
        },
      },
      "/projects/": {
        get: {
          security: [{ jwtAuth: [] }],
          responses: { 200: { description: "", ...json({ type: "array", items: {} }) } },
        },
      },
    },
    components: {
      securitySchemes: { jwtAuth: { type: "http", scheme: "bearer", bearerFormat: "JWT" } },
      schemas: {
        Registration: {
          type: "object",
          required: ["username", "password"],
          properties: {
            username: { type: "string", maxLength: 150 },
            password: { type: "string", maxLength: 128 },
            ...(email ? { email: { type: "string", format: "email", maxLength: 254 } } : {}),
          },
        },
        TokenObtainPair: {
          type: "object",
          required: ["access", "password", "refresh", "username"],
          properties: {
            username: { type: "string", writeOnly: true },
            password: { type: "string", writeOnly: true },
            access: { type: "string", readOnly: true },
            refresh: { type: "string", readOnly: true },
          },
        },
        TokenRefresh: {
          type: "object",
          required: ["access", "refresh"],
          properties: {
            access: { type: "string", readOnly: true },
            refresh: { type: "string", writeOnly: true },
          },
        },
      },
    },
  };
}

/** The stand-in: accounts, the tokens it issued, and what it was sent. */
function standIn(seen: string[], needsEmail = false) {
  const accounts = new Map<string, string>();
  const issued = new Set<string>();
  const body = async (req: Request) => req.method === "POST" ? await req.json() : {};
  return serveStandIn(async (req) => {
    const path = new URL(req.url).pathname;
    const got = await body(req);
    seen.push(`${req.method} ${path}`);
    if (path === "/api/register/") {
      if (needsEmail && !/^\S+@\S+\.\S+$/.test(String(got.email))) {
        return new Response("KeyError: 'email'", { status: 500 });
      }
      accounts.set(got.username, got.password);
      return Response.json({ username: got.username, password: "hashed" }, { status: 201 });
    }
    if (path === "/api/token/") {
      if (accounts.get(got.username) !== got.password) {
        return Response.json({ detail: "No active account" }, { status: 401 });
      }
      const n = issued.size;
      issued.add(`access${n}`).add(`refresh${n}`);
      return Response.json({ access: `access${n}`, refresh: `refresh${n}` });
    }
    if (path === "/api/token/refresh/") {
      return issued.has(got.refresh)
        ? Response.json({ access: "access-new" })
        : Response.json({ detail: "Token is invalid" }, { status: 401 });
    }
    const token = (req.headers.get("authorization") ?? "").replace(/^Bearer /, "");
    return token.startsWith("access") && issued.has(token)
      ? Response.json([])
      : Response.json({ detail: "not authenticated" }, { status: 401 });
  });
}

Deno.test("convert openapi: a login answering access beside refresh signs the suite in, and its refresh is sent back", async () => {
  const seen: string[] = [];
  const { summary, runs: [run] } = await convertAndRunSuite(document(), standIn(seen));
  assert.doesNotMatch(summary, /API_TOKEN/, summary);
  assert.equal(run.code, 0, run.stdout + run.stderr + seen.join("\n"));
  assert.ok(seen.includes("GET /projects/"), seen.join("\n"));
  assert.ok(seen.includes("POST /api/token/refresh/"), seen.join("\n"));
});

Deno.test("convert openapi: a register sends its account's email though its schema requires none", async () => {
  const seen: string[] = [];
  const { runs: [run] } = await convertAndRunSuite(document(true), standIn(seen, true));
  assert.equal(run.code, 0, run.stdout + run.stderr + seen.join("\n"));
  assert.ok(seen.includes("GET /projects/"), seen.join("\n"));
});

/**
 * `convert openapi` on a NestJS document whose login returns the token itself:
 * `login()` returns `jwtService.sign(payload)`, a string, which Nest sends as
 * the whole body (`text/html`), and `@nestjs/swagger` documents the answer as
 * a `200` with no content at all. The token was looked for as a JSON member
 * named like a token, found nothing, and the sign-in failed: every flow was
 * skipped. An answer the document gives no media type may be the token alone:
 * the login's capture now also takes a body that is one word, bare or as a
 * JSON string, while a JSON member named like a token is still read first.
 * The stand-in on 127.0.0.1 answers as the NestJS blog API did; a login
 * answering `{access_token}` with the same undescribed `200` keeps working.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

function document() {
  const json = (schema: unknown) => ({ content: { "application/json": { schema } } });
  const ref = (n: string) => ({ $ref: `#/components/schemas/${n}` });
  return {
    openapi: "3.0.0",
    info: { title: "Blog API", version: "1.0" },
    paths: {
      "/auth/register": {
        post: {
          operationId: "AuthController_register",
          summary: "Create a new user",
          requestBody: { required: true, ...json(ref("RegisterDto")) },
          responses: { 201: { description: "User registered", ...json({ example: 1 }) } },
        },
      },
      "/auth/login": {
        post: {
          operationId: "AuthController_login",
          summary: "Returns access token - signs in user",
          requestBody: { required: true, ...json(ref("LoginDto")) },
          responses: { 200: { description: "" } },
        },
      },
      "/user/profile": {
        get: {
          operationId: "UserController_getProfile",
          security: [{ bearer: [] }],
          responses: { 200: { description: "The profile", ...json(ref("User")) } },
        },
      },
    },
    components: {
      securitySchemes: { bearer: { scheme: "bearer", bearerFormat: "JWT", type: "http" } },
      schemas: {
        RegisterDto: {
          type: "object",
          properties: {
            username: { type: "string", example: "testUser123" },
            email: { type: "string", example: "testUser123@testMail.com" },
            password: { type: "string", example: "YourStr0ngP@ssw0rd!" },
          },
          required: ["username", "email", "password"],
        },
        LoginDto: {
          type: "object",
          properties: {
            email: { type: "string", example: "testUser123@testMail.com" },
            password: { type: "string", example: "YourStr0ngP@ssw0rd!" },
          },
          required: ["email", "password"],
        },
        User: {
          type: "object",
          properties: { id: { type: "number" }, email: { type: "string" } },
          required: ["id", "email"],
        },
      },
    },
  };
}

/** How the login's answer carries the token. */
type Shape = "bare" | "json string" | "member";

/** The stand-in: accounts by email, tokens it issued, a 401 for any other. */
function standIn(shape: Shape, seen: string[]) {
  const accounts = new Map<string, string>();
  const issued = new Set<string>();
  return serveStandIn(async (req) => {
    const path = new URL(req.url).pathname;
    seen.push(`${req.method} ${path}`);
    if (path === "/auth/register") {
      const body = await req.json();
      accounts.set(body.email, body.password);
      return Response.json(accounts.size, { status: 201 });
    }
    if (path === "/auth/login") {
      const body = await req.json();
      if (accounts.get(body.email) !== body.password) {
        return Response.json({ message: "Unauthorized", statusCode: 401 }, { status: 401 });
      }
      const token = `eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOi${issued.size}.c2lnbmF0dXJl`;
      issued.add(token);
      if (shape === "member") return Response.json({ access_token: token });
      if (shape === "json string") return Response.json(token);
      return new Response(token, { headers: { "content-type": "text/html; charset=utf-8" } });
    }
    const token = req.headers.get("authorization")?.replace(/^Bearer /, "") ?? "";
    if (!issued.has(token)) {
      return Response.json({ message: "Unauthorized", statusCode: 401 }, { status: 401 });
    }
    return Response.json({ id: 1, email: "someone@example.com" });
  });
}

for (const shape of ["bare", "json string", "member"] as Shape[]) {
  Deno.test(`convert openapi: a login whose undescribed answer is the token (${shape}) signs the suite in`, async () => {
    const seen: string[] = [];
    const { summary, runs } = await convertAndRunSuite(document(), standIn(shape, seen));
    assert.doesNotMatch(summary, /API_TOKEN/, summary);
    assert.equal(runs[0].code, 0, runs[0].stdout + runs[0].stderr + seen.join("\n"));
    assert.ok(seen.includes("GET /user/profile"), seen.join("\n"));
  });
}

/**
 * `convert openapi` on the shape of a NestJS boilerplate's own document
 * (`@nestjs/swagger`, measured by hand 2026-11-27, docs/real-servers.md): a
 * signed-in account's own path, `/auth/me`, is read, updated and deleted
 * (`DELETE /auth/me` removes the account the login signed in as), beside
 * actions on the whole API that need that account: a password-forgot that
 * sends the account's email, a logout on its session. The DELETE ran among
 * the deletes, before those actions: the forgot-password was answered 422
 * (`emailNotExists`) and every later step ran on a session that was gone.
 *
 * The stand-in below answers as that server does, on 127.0.0.1.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const bearer = [{ bearer: [] }];
const body = (schema: unknown) => ({
  required: true,
  content: { "application/json": { schema } },
});
const answer = (status: string, schema?: unknown) => ({
  [status]: {
    description: "",
    ...(schema ? { content: { "application/json": { schema } } } : {}),
  },
});
const user = { $ref: "#/components/schemas/User" };

/** The parts of the document the defect showed in, as `@nestjs/swagger` writes them. */
export function accountDocument(): Record<string, unknown> {
  const email = { type: "string", example: "test1@example.com" };
  const tags = ["Auth"];
  return {
    openapi: "3.0.0",
    info: { title: "API", version: "1.0" },
    paths: {
      "/api/v1/auth/email/register": {
        post: {
          tags,
          requestBody: body({
            type: "object",
            properties: { email, password: { type: "string" } },
            required: ["email", "password"],
          }),
          responses: answer("204"),
        },
      },
      "/api/v1/auth/email/login": {
        post: {
          tags,
          requestBody: body({
            type: "object",
            properties: { email, password: { type: "string" } },
            required: ["email", "password"],
          }),
          responses: answer("200", {
            type: "object",
            properties: { token: { type: "string" }, user },
            required: ["token", "user"],
          }),
        },
      },
      "/api/v1/auth/me": {
        get: { tags, security: bearer, responses: answer("200", user) },
        delete: { tags, security: bearer, responses: answer("204") },
      },
      "/api/v1/auth/forgot/password": {
        post: {
          tags,
          requestBody: body({ type: "object", properties: { email }, required: ["email"] }),
          responses: answer("204"),
        },
      },
      "/api/v1/auth/logout": {
        post: { tags, security: bearer, responses: answer("204") },
      },
    },
    components: {
      securitySchemes: { bearer: { type: "http", scheme: "bearer", bearerFormat: "JWT" } },
      schemas: {
        User: {
          type: "object",
          properties: { id: { type: "number" }, email: { type: "string" } },
          required: ["id", "email"],
        },
      },
    },
  };
}

/** Accounts by email, tokens to their account's email; a deleted account's tokens end with it. */
function accountServer(seen: string[]) {
  const accounts = new Map<string, { id: number; email: string; password: string }>();
  const sessions = new Map<string, string>();
  const problem = (status: number) => Response.json({ status }, { status });
  return serveStandIn(async (req) => {
    const path = new URL(req.url).pathname.replace("/api/v1", "");
    const route = `${req.method} ${path}`;
    seen.push(route);
    const sent = req.method === "POST" ? await req.json().catch(() => ({})) : {};
    const token = req.headers.get("authorization")?.replace(/^Bearer /, "") ?? "";
    const email = sessions.get(token);
    const account = email === undefined ? undefined : accounts.get(email);
    if (route === "POST /auth/email/register") {
      accounts.set(sent.email, { id: accounts.size + 1, ...sent });
      return new Response(null, { status: 204 });
    }
    if (route === "POST /auth/email/login") {
      const found = accounts.get(sent.email);
      if (!found || found.password !== sent.password) return problem(422);
      const issued = crypto.randomUUID();
      sessions.set(issued, found.email);
      return Response.json({ token: issued, user: { id: found.id, email: found.email } });
    }
    if (route === "POST /auth/forgot/password") {
      return accounts.has(sent.email) ? new Response(null, { status: 204 }) : problem(422);
    }
    if (!account) return problem(401);
    if (route === "GET /auth/me") return Response.json({ id: account.id, email: account.email });
    // As the server's JWT: a token verifies while its account exists, a logout aside.
    if (route === "POST /auth/logout") return new Response(null, { status: 204 });
    if (route === "DELETE /auth/me") {
      accounts.delete(account.email);
      for (const [t, e] of sessions) if (e === account.email) sessions.delete(t);
      return new Response(null, { status: 204 });
    }
    return problem(404);
  });
}

Deno.test("convert openapi: the signed-in account's own DELETE runs last, after the actions that need the account", async () => {
  const seen: string[] = [];
  const { runs, summary } = await convertAndRunSuite(accountDocument(), accountServer(seen));
  const [run] = runs;
  assert.equal(run.code, 0, `${summary}\n${run.stdout}\n${run.stderr}`);
  assert.equal(seen.at(-1), "DELETE /auth/me", seen.join(", "));
  assert.ok(seen.indexOf("POST /auth/forgot/password") < seen.indexOf("DELETE /auth/me"));
});

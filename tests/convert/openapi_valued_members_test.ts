/**
 * `convert openapi` on a document whose object schemas give their members as plain values where
 * schemas belong, as `adonis-autoswagger` writes a controller's `@requestBody {…}` and
 * `@responseBody 200 - {…}` comments: the register's and login's bodies
 * `properties: {email: "johndoe@mail.com", password: "password"}`, the login's answer
 * `properties: {type: "bearer", access_token: "string"}`, a task's `{name: "Activity",
 * completed: false}`, each beside the same object as the media's example. Read as written, the
 * login took no field and answered no token: the summary asked for an `API_TOKEN` made by hand,
 * and with `BASE_URL` alone nothing was sent. Each value is the member's example, of its own type.
 *
 * The stand-in runs on 127.0.0.1 and knows only the accounts the run registers.
 */
import assert from "node:assert/strict";
import { convertAndRunAsUser } from "../support/openapi_login_run.ts";
import { serveStandIn } from "../support/openapi_suite.ts";

const valued = (value: Record<string, unknown>) => ({
  content: {
    "application/json": { schema: { type: "object", properties: value }, example: value },
  },
});

function document() {
  const register = { fullName: "John Doe", email: "johndoe@mail.com", password: "password" };
  const login = { email: "johndoe@mail.com", password: "password" };
  const task = { name: "Activity", completed: false };
  const model = {
    id: { type: "number", example: 77 },
    name: { type: "string", example: "John Doe" },
    completed: { type: "boolean", example: true },
  };
  return {
    openapi: "3.0.0",
    info: { title: "Task Manager API", version: "1.0.0" },
    components: { securitySchemes: { BearerAuth: { type: "http", scheme: "bearer" } } },
    paths: {
      "/api/v1/auth/register": {
        post: {
          tags: ["AUTH"],
          security: [],
          requestBody: valued(register),
          responses: { 201: { description: "Created", ...valued({ id: 1, email: "x" }) } },
        },
      },
      "/api/v1/auth/login": {
        post: {
          tags: ["AUTH"],
          security: [],
          requestBody: valued(login),
          responses: {
            200: { description: "OK", ...valued({ type: "bearer", access_token: "string" }) },
          },
        },
      },
      "/api/v1/tasks": {
        post: {
          tags: ["TASKS"],
          security: [{ BearerAuth: ["access"] }],
          requestBody: valued(task),
          // The answer is the model's schema, as the package writes a `<Task>` response.
          responses: {
            200: {
              description: "OK",
              content: { "application/json": { schema: { type: "object", properties: model } } },
            },
          },
        },
      },
    },
  };
}

function standIn() {
  const accounts = new Map<string, string>();
  const tokens = new Set<string>();
  return serveStandIn(async (req) => {
    const { pathname } = new URL(req.url);
    const body = await req.json().catch(() => ({}));
    if (pathname === "/api/v1/auth/register") {
      const ok = typeof body.fullName === "string" && typeof body.email === "string" &&
        typeof body.password === "string" && body.password.length >= 8;
      if (!ok) return Response.json({ errors: [{ message: "invalid" }] }, { status: 422 });
      accounts.set(body.email, body.password);
      return Response.json({ id: accounts.size, email: body.email }, { status: 201 });
    }
    if (pathname === "/api/v1/auth/login") {
      if (!accounts.has(body.email) || accounts.get(body.email) !== body.password) {
        return Response.json({ errors: [{ message: "Invalid credentials" }] }, { status: 400 });
      }
      const token = `oat_${crypto.randomUUID()}`;
      tokens.add(token);
      return Response.json({ type: "bearer", access_token: token });
    }
    if (pathname === "/api/v1/tasks") {
      const token = (req.headers.get("authorization") ?? "").replace(/^Bearer /, "");
      if (!tokens.has(token)) {
        return Response.json({ errors: [{ message: "Unauthorized access" }] }, { status: 401 });
      }
      if (typeof body.name !== "string" || typeof body.completed !== "boolean") {
        return Response.json({ errors: [{ message: "invalid" }] }, { status: 422 });
      }
      return Response.json({ id: 1, ...body });
    }
    return Response.json({ errors: [{ message: "not found" }] }, { status: 404 });
  });
}

Deno.test("convert openapi: members given as plain values are read as their type, the login signing in with BASE_URL alone", async () => {
  const server = standIn();
  try {
    const { summary, run, steps } = await convertAndRunAsUser(
      document(),
      server,
      (base) => ({ BASE_URL: base }),
    );
    assert.doesNotMatch(summary, /API_TOKEN/, summary);
    assert.equal(run.code, 0, summary + run.stdout + run.stderr);
    assert.ok(
      steps.length >= 3 && steps.every((s) => s.status === "passed"),
      JSON.stringify(steps),
    );
  } finally {
    await server.close();
  }
});

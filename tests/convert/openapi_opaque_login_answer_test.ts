/**
 * `convert openapi` on a document whose login's answer is a schema naming no
 * member (`{type: "object", properties: {}}`), under a bearer scheme the
 * document requires of every operation. Found on Plumier's tutorial app
 * (`@plumier/swagger`, Koa, JWT; measured by hand, see
 * docs/real-servers.md): its `POST /api/v1/auth/login {email, password}`
 * returns `{token}` from an `async` method, which the document shows as the
 * `Promise` it reflects, an empty object; read as answering no token, the
 * document had no login and the summary asked for `API_TOKEN`, a token the
 * user had to make by hand. Such an answer says nothing of the body, as one
 * with no schema says nothing: the login is the suite's way in, its token
 * found by name in the answer, and the summary asks for an account
 * (`LOGIN_EMAIL`, `LOGIN_PASSWORD`) instead. An answer whose schema names
 * members and no token is read as before.
 *
 * The stand-in runs on 127.0.0.1, knows one account and refuses every call
 * but the login without the token it answers.
 */
import assert from "node:assert/strict";
import { convertAndRunAsUser } from "../support/openapi_login_run.ts";
import { serveStandIn } from "../support/openapi_suite.ts";

const json = (schema: unknown) => ({ content: { "application/json": { schema } } });
const TODO = {
  type: "object",
  properties: { id: { type: "integer" }, message: { type: "string" } },
};

/** The tutorial's shape: a login answering `Promise`, todos, a bearer required at the top. */
function document(answer: unknown) {
  return {
    openapi: "3.0.0",
    info: { title: "Api Explorer", version: "1.0.0" },
    security: [{ bearer: [] }],
    components: {
      securitySchemes: { bearer: { type: "http", scheme: "bearer", bearerFormat: "JWT" } },
      schemas: { Promise: answer, Todo: TODO },
    },
    paths: {
      "/api/v1/auth/login": {
        post: {
          tags: ["Auth"],
          summary: "Public",
          requestBody: {
            required: true,
            ...json({
              type: "object",
              properties: { email: { type: "string" }, password: { type: "string" } },
            }),
          },
          responses: {
            "200": {
              description: "Response body",
              ...json({ $ref: "#/components/schemas/Promise" }),
            },
          },
        },
      },
      "/api/v1/todos": {
        get: {
          tags: ["Todos"],
          responses: {
            "200": { description: "Response body", ...json({ type: "array", items: TODO }) },
          },
        },
        post: {
          tags: ["Todos"],
          requestBody: {
            required: true,
            ...json({ type: "object", properties: { message: { type: "string" } } }),
          },
          responses: {
            "200": {
              description: "Response body",
              ...json({ type: "object", properties: { id: { type: "integer" } } }),
            },
          },
        },
      },
    },
  };
}

const ACCOUNT = { email: "owner@example.org", password: "s3cret-Owner-pass" };

/** Todos behind a token only the login hands out. */
function standIn() {
  const tokens = new Set<string>();
  const todos: { id: number; message: string }[] = [];
  const counts = { logins: 0, refused: 0 };
  const server = serveStandIn(async (req) => {
    const { pathname } = new URL(req.url);
    const body = req.method === "POST" ? await req.json().catch(() => ({})) : {};
    if (pathname === "/api/v1/auth/login") {
      if (body.email !== ACCOUNT.email || body.password !== ACCOUNT.password) {
        return Response.json({ message: "Invalid username or password" }, { status: 422 });
      }
      counts.logins++;
      const token = `eyJ${crypto.randomUUID().replaceAll("-", "")}`;
      tokens.add(token);
      return Response.json({ token });
    }
    const token = /^Bearer (.+)$/.exec(req.headers.get("authorization") ?? "")?.[1];
    if (!token || !tokens.has(token)) {
      counts.refused++;
      return Response.json({ message: "Unauthorized" }, { status: 401 });
    }
    if (req.method === "POST") {
      todos.push({ id: todos.length + 1, message: String(body.message) });
      return Response.json({ id: todos.length });
    }
    return Response.json(todos);
  });
  return { server, counts };
}

Deno.test("convert openapi: a login whose answer's schema names no member signs the suite in with its token, as the user's account", async () => {
  const { server, counts } = standIn();
  const { summary, flows, run, report, steps } = await convertAndRunAsUser(
    document({ type: "object", properties: {} }),
    server,
    (base) => ({ BASE_URL: base, LOGIN_EMAIL: ACCOUNT.email, LOGIN_PASSWORD: ACCOUNT.password }),
  );
  assert.ok(!/API_TOKEN/.test(summary), summary);
  assert.match(summary, /^ {2}LOGIN_PASSWORD: .*POST \/api\/v1\/auth\/login/m);
  assert.ok(!/s3cret|owner@example/.test([...flows.values()].join("\n")));
  assert.equal(run.code, 0, run.stdout + run.stderr);
  assert.ok(steps.length >= 3 && steps.every((s) => s.status === "passed"), JSON.stringify(steps));
  assert.equal(counts.refused, 0);
  assert.ok(counts.logins >= 1);
  assert.ok(!report.includes(ACCOUNT.password));
});

Deno.test("convert openapi: a login whose answer's schema names members and no token is no login", async () => {
  const { server } = standIn();
  const { summary } = await convertAndRunAsUser(
    document({ type: "object", properties: { id: { type: "integer" } } }),
    server,
    (base) => ({ BASE_URL: base, API_TOKEN: "t" }),
  );
  assert.match(summary, /API_TOKEN/);
});

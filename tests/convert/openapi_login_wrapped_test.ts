/**
 * `convert openapi` on a login whose body wraps its credentials in a
 * member that pydantic 1 writes as `{title, allOf: [{$ref: LoginUser}]}`
 * (FastAPI's `Body(..., embed=True, title=…)`: a RealWorld backend's
 * `POST /api/users/login {user: {email, password}}`), beside the sign-up
 * `POST /api/users {user: {$ref: UserCreate}}`. The wrapper has no `type`,
 * so it was read as one more credential field the login takes (`user`),
 * which the sign-up does not: no sign-up was found, the summary asked for
 * `LOGIN_EMAIL`, `LOGIN_USERNAME` and `LOGIN_PASSWORD`, and on a fresh
 * database nothing ran. A member that is a schema of properties (through
 * `allOf`, `anyOf` or `oneOf`) is an object, not a field; now the suite
 * registers and signs in with `BASE_URL` alone.
 *
 * The stand-in runs on 127.0.0.1 and knows only the accounts the run
 * registers.
 */
import assert from "node:assert/strict";
import { convertAndRunAsUser } from "../support/openapi_login_run.ts";
import { serveStandIn } from "../support/openapi_suite.ts";

const json = (schema: unknown) => ({ content: { "application/json": { schema } } });
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const ok = (schema: unknown) => ({
  "200": { description: "Successful Response", ...json(schema) },
  "422": { description: "Validation Error", ...json(ref("HTTPValidationError")) },
});
const text = { type: "string" };
const object = (required: string[], properties: Record<string, unknown>) => ({
  type: "object",
  required,
  properties,
});

function document() {
  return {
    openapi: "3.0.2",
    info: { title: "FastAPI", version: "0.1.0" },
    paths: {
      "/api/users": {
        post: {
          tags: ["User and Authentication"],
          summary: "Register A New User",
          requestBody: { required: true, ...json(object(["user"], { user: ref("UserCreate") })) },
          responses: ok(ref("UserResponse")),
        },
      },
      "/api/users/login": {
        post: {
          tags: ["User and Authentication"],
          summary: "Login And Remember Token",
          requestBody: {
            required: true,
            ...json(object(["user"], {
              user: { title: "User", allOf: [ref("LoginUser")], name: "Credentials to use" },
            })),
          },
          responses: ok(ref("UserResponse")),
        },
      },
      "/api/user": {
        get: {
          tags: ["User and Authentication"],
          summary: "Get Current User",
          responses: ok(ref("UserResponse")),
          security: [{ APIKeyHeader: [] }],
        },
      },
    },
    components: {
      schemas: {
        HTTPValidationError: object([], { detail: { type: "array", items: {} } }),
        LoginUser: object(["email", "password"], {
          email: text,
          password: { type: "string", format: "password", writeOnly: true },
        }),
        UserCreate: object(["email", "username", "password"], {
          email: { type: "string", format: "email" },
          username: text,
          password: { type: "string", format: "password", writeOnly: true },
        }),
        UserWithToken: object(["token"], { email: text, username: text, token: text }),
        UserResponse: object(["user"], { user: ref("UserWithToken") }),
      },
      securitySchemes: { APIKeyHeader: { type: "apiKey", in: "header", name: "Authorization" } },
    },
  };
}

function standIn() {
  const accounts = new Map<string, { username: string; password: string }>();
  const answer = (email: string) =>
    Response.json({
      user: { email, username: accounts.get(email)!.username, token: `tok-${email}` },
    });
  return serveStandIn(async (req) => {
    const { pathname } = new URL(req.url);
    const body = req.method === "POST" ? await req.json().catch(() => ({})) : {};
    const user = body.user ?? {};
    if (pathname === "/api/users" && req.method === "POST") {
      if (!user.email || !user.username || !user.password) {
        return Response.json({ detail: [{ msg: "field required" }] }, { status: 422 });
      }
      accounts.set(user.email, { username: user.username, password: user.password });
      return answer(user.email);
    }
    if (pathname === "/api/users/login" && req.method === "POST") {
      if (accounts.get(user.email)?.password !== user.password) {
        return Response.json({ detail: "incorrect email or password" }, { status: 400 });
      }
      return answer(user.email);
    }
    if (pathname === "/api/user" && req.method === "GET") {
      const email = (req.headers.get("authorization") ?? "").replace(/^\S+ tok-/, "");
      if (!accounts.has(email)) {
        return Response.json({ detail: "Not authenticated" }, { status: 403 });
      }
      return answer(email);
    }
    return Response.json({ detail: "Not Found" }, { status: 404 });
  });
}

Deno.test("convert openapi: a login whose credentials member is an allOf wrapper is signed up for and signed in with BASE_URL alone", async () => {
  const server = standIn();
  try {
    const { summary, run, steps } = await convertAndRunAsUser(
      document(),
      server,
      (base) => ({ BASE_URL: base }),
    );
    assert.doesNotMatch(summary, /LOGIN_EMAIL|LOGIN_USERNAME|LOGIN_PASSWORD/);
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.ok(
      steps.length >= 3 && steps.every((s) => s.status === "passed"),
      JSON.stringify(steps),
    );
  } finally {
    await server.close();
  }
});

/**
 * `convert openapi` on the shape FastAPI gives an API with
 * `OAuth2PasswordBearer(tokenUrl="login")`: an OAuth2 password flow whose
 * `tokenUrl` is an operation of the document taking a FORM
 * (`Body_login_login_post`: `username` and `password` required, `grant_type`
 * optional with the pattern `password`, `client_id` and `client_secret`
 * optional) that answers `{access_token, token_type}`, beside a sign-up
 * needing no credentials (`POST /users/` with an email and a password).
 * The summary asked for `CLIENT_ID`, `CLIENT_SECRET`, `OAUTH2_USERNAME` and
 * `OAUTH2_PASSWORD`: no user of such a server has a client, and on a fresh
 * database nobody has an account; the login's own step signed in with a
 * made-up account (400). Now the suite registers its account, signs in
 * through the form and sends the token as a bearer, asking only for
 * `BASE_URL`. A token endpoint whose form requires `grant_type` or a client
 * stays OAuth2's (tests/convert/openapi_oauth2_login_test.ts).
 *
 * The stand-in runs on 127.0.0.1: it reads the login only as a form and
 * knows only the accounts the run registers.
 */
import assert from "node:assert/strict";
import { convertAndRunAsUser } from "../support/openapi_login_run.ts";
import { serveStandIn } from "../support/openapi_suite.ts";
import { runCli } from "../support/cli.ts";

const json = (schema: unknown) => ({ content: { "application/json": { schema } } });
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const answer = (status: string, schema: unknown) => ({
  [status]: { description: "Successful Response", ...json(schema) },
  "422": { description: "Validation Error", ...json(ref("HTTPValidationError")) },
});
const secured = [{ OAuth2PasswordBearer: [] }];

const LOGIN_FORM = {
  title: "Body_login_login_post",
  type: "object",
  required: ["username", "password"],
  properties: {
    grant_type: { title: "Grant Type", pattern: "password", type: "string" },
    username: { title: "Username", type: "string" },
    password: { title: "Password", type: "string" },
    scope: { title: "Scope", type: "string", default: "" },
    client_id: { title: "Client Id", type: "string" },
    client_secret: { title: "Client Secret", type: "string" },
  },
};

/** The document FastAPI 0.92 serves for a users-and-posts API (pydantic 1: OpenAPI 3.0.2). */
function document(form = LOGIN_FORM) {
  const error = {
    title: "HTTPValidationError",
    type: "object",
    properties: { detail: { type: "array", items: { type: "object" } } },
  };
  return {
    openapi: "3.0.2",
    info: { title: "FastAPI", version: "0.1.0" },
    paths: {
      "/users/": {
        post: {
          tags: ["Users"],
          summary: "Create User",
          operationId: "create_user_users__post",
          requestBody: { required: true, ...json(ref("UserCreate")) },
          responses: answer("201", ref("UserOut")),
        },
      },
      "/users/{id}": {
        get: {
          tags: ["Users"],
          summary: "Get User",
          operationId: "get_user_users__id__get",
          parameters: [{
            required: true,
            schema: { title: "Id", type: "integer" },
            name: "id",
            in: "path",
          }],
          responses: answer("200", ref("UserOut")),
        },
      },
      "/login": {
        post: {
          tags: ["Authentication"],
          summary: "Login",
          operationId: "login_login_post",
          requestBody: {
            required: true,
            content: {
              "application/x-www-form-urlencoded": { schema: ref("Body_login_login_post") },
            },
          },
          responses: answer("200", ref("Token")),
        },
      },
      "/posts/": {
        post: {
          tags: ["Posts"],
          summary: "Create Post",
          operationId: "create_post_posts__post",
          requestBody: { required: true, ...json(ref("PostCreate")) },
          responses: answer("201", ref("Post")),
          security: secured,
        },
      },
    },
    components: {
      schemas: {
        Body_login_login_post: form,
        HTTPValidationError: error,
        Token: {
          title: "Token",
          type: "object",
          required: ["access_token", "token_type"],
          properties: { access_token: { type: "string" }, token_type: { type: "string" } },
        },
        UserCreate: {
          title: "UserCreate",
          type: "object",
          required: ["email", "password"],
          properties: {
            email: { type: "string", format: "email" },
            password: { type: "string" },
          },
        },
        UserOut: {
          title: "UserOut",
          type: "object",
          required: ["id", "email"],
          properties: { id: { type: "integer" }, email: { type: "string", format: "email" } },
        },
        PostCreate: {
          title: "PostCreate",
          type: "object",
          required: ["title", "content"],
          properties: { title: { type: "string" }, content: { type: "string" } },
        },
        Post: {
          title: "Post",
          type: "object",
          required: ["id", "title", "owner_id"],
          properties: {
            id: { type: "integer" },
            title: { type: "string" },
            owner_id: { type: "integer" },
          },
        },
      },
      securitySchemes: {
        OAuth2PasswordBearer: {
          type: "oauth2",
          flows: { password: { scopes: {}, tokenUrl: "login" } },
        },
      },
    },
  };
}

/** A FastAPI-like server: the login reads a form only, and knows only registered accounts. */
function standIn() {
  const accounts = new Map<string, { id: number; password: string }>();
  const tokens = new Map<string, number>();
  let next = 1;
  return serveStandIn(async (req) => {
    const { pathname } = new URL(req.url);
    const unprocessable = () =>
      Response.json({ detail: [{ msg: "field required" }] }, { status: 422 });
    if (pathname === "/users/" && req.method === "POST") {
      const body = await req.json().catch(() => ({}));
      if (typeof body.email !== "string" || typeof body.password !== "string") {
        return unprocessable();
      }
      if (accounts.has(body.email)) return Response.json({ detail: "taken" }, { status: 400 });
      const id = next++;
      accounts.set(body.email, { id, password: body.password });
      return Response.json({ id, email: body.email }, { status: 201 });
    }
    const user = /^\/users\/(\d+)$/.exec(pathname);
    if (user && req.method === "GET") {
      const found = [...accounts].find(([, a]) => a.id === Number(user[1]));
      return found
        ? Response.json({ id: found[1].id, email: found[0] })
        : Response.json({ detail: "not found" }, { status: 404 });
    }
    if (pathname === "/login" && req.method === "POST") {
      if (!/x-www-form-urlencoded/.test(req.headers.get("content-type") ?? "")) {
        return unprocessable();
      }
      const form = new URLSearchParams(await req.text());
      const account = accounts.get(form.get("username") ?? "");
      if (!account || account.password !== form.get("password")) {
        return Response.json({ detail: "Invalid Credentials" }, { status: 403 });
      }
      const token = `tok-${account.id}`;
      tokens.set(token, account.id);
      return Response.json({ access_token: token, token_type: "bearer" });
    }
    if (pathname === "/posts/" && req.method === "POST") {
      const owner = tokens.get((req.headers.get("authorization") ?? "").replace(/^Bearer /, ""));
      if (owner === undefined) {
        return Response.json({ detail: "Not authenticated" }, { status: 401 });
      }
      const body = await req.json().catch(() => ({}));
      return Response.json({ id: next++, title: body.title, owner_id: owner }, { status: 201 });
    }
    return Response.json({ detail: "Not Found" }, { status: 404 });
  });
}

Deno.test("convert openapi: FastAPI's OAuth2 password form login beside a sign-up: the suite registers, signs in and runs with BASE_URL alone", async () => {
  const server = standIn();
  try {
    const { summary, flows, run, steps } = await convertAndRunAsUser(
      document(),
      server,
      (base) => ({ BASE_URL: base }),
    );
    assert.doesNotMatch(summary, /CLIENT_ID|CLIENT_SECRET|OAUTH2_USERNAME|LOGIN_PASSWORD/);
    const texts = [...flows.values()].join("\n");
    assert.doesNotMatch(texts, /oauth2:/);
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.ok(
      steps.some((s) => /login/.test(s.name) && s.status === "passed"),
      JSON.stringify(steps),
    );
  } finally {
    await server.close();
  }
});

Deno.test("convert openapi: a token endpoint whose form requires grant_type stays OAuth2's", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const strict = { ...LOGIN_FORM, required: ["grant_type", "username", "password"] };
    await Deno.writeTextFile(`${dir}/api.json`, JSON.stringify(document(strict)));
    const run = await runCli(["convert", "openapi", `${dir}/api.json`, "-o", `${dir}/flows`]);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /^ {2}CLIENT_ID: /m);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

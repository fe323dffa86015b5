/**
 * A login whose schema requires none of its fields, beside a field that
 * picks how to sign in (an `enum`), and a sign-up whose schema requires only
 * the email. Found on a Feathers 5 application's document from
 * `feathers-swagger` 3 (measured by hand, see docs/real-servers.md):
 * `POST /authentication` takes `{strategy: enum [local, github], email,
 * password}` requiring nothing and answers `accessToken`; `POST /users`
 * (`security: []`) requires `email` only. The login was sent
 * `{strategy: local}` alone (401 "Invalid login"), the sign-up was not seen
 * as one (it lacks the `strategy` the login takes), and every operation
 * needing the token was skipped: 0 of 13. A field with an `enum` or `const`
 * is a choice, not part of the account, so the sign-up is the one taking the
 * login's email and password; both send the account's email and password
 * whatever the schema requires, the run's own, and the rest signs in as it.
 *
 * The stand-in runs on 127.0.0.1 and behaves as Feathers' local strategy
 * does: it signs in only an account registered with a password.
 */
import assert from "node:assert/strict";
import { convertAndRunAsUser } from "../support/openapi_login_run.ts";
import { serveStandIn } from "../support/openapi_suite.ts";

const json = (schema: unknown) => ({ content: { "application/json": { schema } } });
const USER = {
  type: "object",
  required: ["email"],
  properties: {
    email: { type: "string" },
    password: { type: "string" },
    avatar: { type: "string" },
  },
};
const MESSAGE = {
  type: "object",
  properties: { id: { type: "number" }, text: { type: "string" } },
};

const document = {
  openapi: "3.0.3",
  info: { title: "Chat", version: "1" },
  security: [{ BearerAuth: [] }],
  components: { securitySchemes: { BearerAuth: { type: "http", scheme: "bearer" } } },
  paths: {
    "/authentication": {
      post: {
        tags: ["authentication"],
        security: [],
        requestBody: json({
          type: "object",
          properties: {
            strategy: { type: "string", enum: ["local", "github"] },
            email: { type: "string" },
            password: { type: "string" },
          },
        }),
        responses: {
          "201": {
            description: "created",
            ...json({
              type: "object",
              properties: { accessToken: { type: "string" }, user: USER },
            }),
          },
        },
      },
    },
    "/users": {
      post: {
        tags: ["users"],
        security: [],
        requestBody: json(USER),
        responses: { "201": { description: "created", ...json(USER) } },
      },
    },
    "/messages": {
      get: {
        tags: ["messages"],
        responses: {
          "200": { description: "success", ...json({ type: "array", items: MESSAGE }) },
        },
      },
      post: {
        tags: ["messages"],
        requestBody: json({
          type: "object",
          required: ["text"],
          properties: { text: { type: "string" } },
        }),
        responses: { "201": { description: "created", ...json(MESSAGE) } },
      },
    },
  },
};

function standIn() {
  const accounts = new Map<string, string>();
  const tokens = new Set<string>();
  const messages: { id: number; text: string }[] = [];
  const server = serveStandIn(async (req) => {
    const { pathname } = new URL(req.url);
    const body = req.method === "POST" ? await req.json().catch(() => ({})) : {};
    if (pathname === "/users" && req.method === "POST") {
      if (typeof body.email !== "string") {
        return Response.json({ name: "BadRequest" }, { status: 400 });
      }
      accounts.set(body.email, body.password);
      return Response.json({ id: accounts.size, email: body.email }, { status: 201 });
    }
    if (pathname === "/authentication" && req.method === "POST") {
      const known = body.strategy === "local" && typeof body.password === "string" &&
        accounts.get(body.email) === body.password;
      if (!known) {
        return Response.json({ name: "NotAuthenticated", message: "Invalid login" }, {
          status: 401,
        });
      }
      const token = crypto.randomUUID();
      tokens.add(token);
      return Response.json({ accessToken: token, user: { email: body.email } }, { status: 201 });
    }
    const token = /^Bearer (.+)$/.exec(req.headers.get("authorization") ?? "")?.[1];
    if (!token || !tokens.has(token)) {
      return Response.json({ name: "NotAuthenticated" }, { status: 401 });
    }
    if (req.method === "POST") {
      messages.push({ id: messages.length + 1, text: body.text });
      return Response.json(messages.at(-1), { status: 201 });
    }
    return Response.json(messages);
  });
  return server;
}

Deno.test("convert openapi: a login requiring none of its fields is sent the account a sign-up makes, the choice field aside", async () => {
  const { summary, flows, run, steps } = await convertAndRunAsUser(
    document,
    standIn(),
    (base) => ({ BASE_URL: base }),
  );
  assert.match(summary, /signed in as the account POST \/users registers/);
  assert.ok(!/LOGIN_|API_TOKEN/.test(summary), summary);
  // The run's one sign-in (sign_in_once.ts) holds the sign-up and the login; the flows read it.
  const signIn = flows.get(".sign_in.yaml")!;
  assert.match(signIn, /password: \$\{vars\.password\}/);
  // The email the login sends is the one the sign-up registered; no var is declared unread.
  assert.match(signIn, /email: \$\{vars\.email\}\n\s+password:/);
  assert.doesNotMatch(signIn, /^ {2}username:/m);
  assert.match(flows.get("messages.yaml")!, /token: \$\{setup\.token\}/);
  assert.equal(run.code, 0, run.stdout + run.stderr);
  // The sign-up, the login, and the two messages' steps.
  assert.ok(steps.length >= 4 && steps.every((s) => s.status === "passed"), JSON.stringify(steps));
});

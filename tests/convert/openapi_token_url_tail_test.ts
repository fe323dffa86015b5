/**
 * `convert openapi` on a document whose OAuth2 password flow names, as its
 * `tokenUrl`, a path no operation of the document has, while one of its
 * JSON logins ends with that path. FastAPI writes what its code passes
 * (`OAuth2PasswordBearer(tokenUrl="login")`) while the login's router adds
 * a prefix (`/auth/login`): the summary asked for `CLIENT_ID`,
 * `CLIENT_SECRET` and an account, and every token request went to
 * `/login`, which answered 404 (a scrum board's API on FastAPI: 3 of 24
 * operations). The document's own paths are the evidence: the one POST
 * taking JSON whose last segments are the `tokenUrl`'s is the login, and
 * the suite signs up and signs in there. A `tokenUrl` two logins end with,
 * or one the document has itself, is not guessed at. The sign-up's answer,
 * `{}` like the login's (routes without a `response_model`), was then read
 * as holding the token and the sign-in captured none: two answers that name
 * no member say nothing of which holds it.
 *
 * The stand-in runs on 127.0.0.1 and answers 404 at `/login`.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";
import { runCli } from "../support/cli.ts";

const json = (schema: unknown) => ({ content: { "application/json": { schema } } });

const SIGN_UP = {
  type: "object",
  required: ["username", "email", "password"],
  properties: {
    username: { type: "string" },
    email: { type: "string", format: "email" },
    password: { type: "string" },
  },
};
const LOGIN = {
  type: "object",
  required: ["email", "password"],
  properties: { email: { type: "string" }, password: { type: "string" } },
};
const NOTE = {
  type: "object",
  required: ["title"],
  properties: { id: { type: "integer" }, title: { type: "string" } },
};
const secured = { security: [{ OAuth2PasswordBearer: [] }] };

/** FastAPI's shape: a relative `tokenUrl`, the login under a router's prefix, no answer schema. */
function document(tokenUrl: string, extraPaths: Record<string, unknown> = {}) {
  return {
    openapi: "3.0.2",
    info: { title: "Board", version: "1" },
    components: {
      securitySchemes: {
        OAuth2PasswordBearer: { type: "oauth2", flows: { password: { scopes: {}, tokenUrl } } },
      },
    },
    paths: {
      "/auth/": {
        post: {
          tags: ["Auth"],
          requestBody: { required: true, ...json(SIGN_UP) },
          responses: { "201": { description: "Created", ...json({}) } },
        },
      },
      "/auth/login": {
        post: {
          tags: ["Auth"],
          requestBody: { required: true, ...json(LOGIN) },
          responses: { "200": { description: "Successful Response", ...json({}) } },
        },
      },
      "/note/": {
        post: {
          tags: ["Note"],
          ...secured,
          requestBody: { required: true, ...json(NOTE) },
          responses: { "201": { description: "Created", ...json(NOTE) } },
        },
        get: {
          tags: ["Note"],
          ...secured,
          responses: { "200": { description: "OK", ...json({ type: "array", items: NOTE }) } },
        },
      },
      ...extraPaths,
    },
  };
}

/** Accounts by email; a token per account; notes need the token. */
function standIn() {
  const accounts = new Map<string, string>();
  const tokens = new Set<string>();
  const notes: unknown[] = [];
  return serveStandIn(async (req) => {
    const { pathname } = new URL(req.url);
    const body = req.method === "POST" ? await req.json().catch(() => ({})) : {};
    if (pathname === "/auth/" && req.method === "POST") {
      if (typeof body.email !== "string" || accounts.has(body.email)) {
        return Response.json({ detail: "Taken" }, { status: 400 });
      }
      accounts.set(body.email, body.password);
      return Response.json({ id: accounts.size, email: body.email }, { status: 201 });
    }
    if (pathname === "/auth/login" && req.method === "POST") {
      if (!accounts.has(body.email) || accounts.get(body.email) !== body.password) {
        return Response.json({ detail: "Invalid" }, { status: 400 });
      }
      const token = `tok-${tokens.size + 1}`;
      tokens.add(token);
      return Response.json({ access_token: token, token_type: "bearer" });
    }
    if (pathname === "/note/") {
      const token = (req.headers.get("authorization") ?? "").replace(/^Bearer /, "");
      if (!tokens.has(token)) return Response.json({ detail: "No" }, { status: 401 });
      if (req.method === "GET") return Response.json(notes);
      const note = { id: notes.length + 1, title: body.title };
      notes.push(note);
      return Response.json(note, { status: 201 });
    }
    return Response.json({ detail: "Not Found" }, { status: 404 });
  });
}

/** Converts the document whose tokenUrl is `tokenUrl` and runs its suite twice: it signs in there. */
async function signsInAt(tokenUrl: string): Promise<void> {
  const { summary, runs } = await convertAndRunSuite(document(tokenUrl), standIn(), { runs: 2 });
  assert.doesNotMatch(summary, /CLIENT_ID|CLIENT_SECRET|OAUTH2_/);
  for (const run of runs) assert.equal(run.code, 0, run.stdout + run.stderr);
  assert.match(runs[0].stdout + runs[0].stderr, /4 of 4 operations/);
}

/** Converts the document with a second JSON login beside it: the scheme stays OAuth2's. */
async function staysOAuth2(tokenUrl: string): Promise<void> {
  const other = {
    "/admin/login": {
      post: {
        tags: ["Admin"],
        requestBody: { required: true, ...json(LOGIN) },
        responses: { "200": { description: "OK", ...json({}) } },
      },
    },
  };
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/api.json`, JSON.stringify(document(tokenUrl, other)));
    const run = await runCli(["convert", "openapi", `${dir}/api.json`, "-o", `${dir}/flows`]);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /^ {2}CLIENT_ID: /m);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("convert openapi: a relative tokenUrl the document's one JSON login ends with signs in there", () =>
  signsInAt("login"));

Deno.test("convert openapi: a tokenUrl two JSON logins end with stays OAuth2's", () =>
  staysOAuth2("login"));

Deno.test("convert openapi: a tokenUrl whose first segment no path has signs in at the one JSON login ending with its last", () =>
  // FastAPI again: `tokenUrl="auth/login"` in the code, the router mounted at `/auths` (a bug
  // tracker's API: 2 of 23 operations, every token request answered 404).
  signsInAt("session/login"));

Deno.test("convert openapi: a tokenUrl whose last segment two JSON logins end with stays OAuth2's", () =>
  staysOAuth2("session/login"));

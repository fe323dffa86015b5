/**
 * `convert openapi` on a Django REST framework document whose login is DRF's
 * own token view (`ObtainAuthToken` at a path of the project's choosing):
 * drf-spectacular lists, on every view, the framework's default
 * authentications (a session cookie and HTTP basic) and adds an empty
 * option where the view lets anyone in; the token view lets anyone in but
 * gets no empty option, so the document says the login needs a session
 * cookie or basic credentials. Read that way the login was no login: the
 * summary asked for the cookie (`API_KEY`) and for the token scheme's value
 * by hand. A requirement naming only schemes that no other operation of the
 * document requires (each is only ever an option beside an empty one) is
 * the framework's blanket, not a credential the suite must have first: a
 * POST taking a password under such a requirement, which says it hands out
 * a token, is the login, and the account is signed up first. A mint of a
 * personal token under a session that other operations do require still
 * needs that session. The stand-in on 127.0.0.1 answers as DRF does.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

/** JSON, form and multipart bodies of one schema, as drf-spectacular writes a request. */
function bodies(name: string) {
  const schema = { $ref: `#/components/schemas/${name}` };
  return {
    content: {
      "application/x-www-form-urlencoded": { schema },
      "multipart/form-data": { schema },
      "application/json": { schema },
    },
  };
}

/** The framework's defaults, and the same with the empty option of an open view. */
const BLANKET = [{ cookieAuth: [] }, { basicAuth: [] }];
const OPEN = [...BLANKET, {}];

/** A document whose login sits under `loginSecurity`, and whose notes need `notesSecurity`. */
function document(loginSecurity: unknown[], notesSecurity: unknown[]) {
  return {
    openapi: "3.0.3",
    info: { title: "notes", version: "1.0.0" },
    paths: {
      "/api/accounts/token/": {
        post: {
          operationId: "accounts_token_create",
          tags: ["accounts"],
          security: loginSecurity,
          requestBody: { required: true, ...bodies("AuthKeyRequest") },
          // The view's serializer, which has no token: the answer's `{token}` is never shown.
          responses: { 200: { description: "", ...bodies("AuthKey") } },
        },
      },
      "/api/accounts/": {
        post: {
          operationId: "accounts_create",
          tags: ["accounts"],
          security: OPEN,
          requestBody: { required: true, ...bodies("AccountRequest") },
          responses: { 201: { description: "", ...bodies("Account") } },
        },
      },
      "/api/notes/": {
        get: {
          operationId: "notes_list",
          tags: ["notes"],
          security: notesSecurity,
          responses: { 200: { description: "" } },
        },
      },
      "/api/status/": {
        get: { operationId: "status_retrieve", tags: ["status"], security: OPEN, responses: {} },
      },
    },
    components: {
      schemas: {
        AuthKey: {
          type: "object",
          properties: { email: { type: "string", format: "email" }, password: { type: "string" } },
          required: ["email", "password"],
        },
        AuthKeyRequest: {
          type: "object",
          properties: {
            email: { type: "string", format: "email", minLength: 1 },
            password: { type: "string", minLength: 1 },
          },
          required: ["email", "password"],
        },
        Account: {
          type: "object",
          properties: { email: { type: "string", format: "email" }, name: { type: "string" } },
          required: ["email", "name"],
        },
        AccountRequest: {
          type: "object",
          properties: {
            email: { type: "string", format: "email", minLength: 1 },
            password: { type: "string", writeOnly: true, minLength: 5 },
            name: { type: "string", minLength: 1 },
          },
          required: ["email", "name", "password"],
        },
      },
      securitySchemes: {
        basicAuth: { type: "http", scheme: "basic" },
        cookieAuth: { type: "apiKey", in: "cookie", name: "sessionid" },
        tokenAuth: {
          type: "apiKey",
          in: "header",
          name: "Authorization",
          description: 'Token-based authentication with required prefix "Token"',
        },
      },
    },
  };
}

/** The stand-in: DRF's token login, and a 401 for a notes read without a key it issued. */
function standIn(seen: string[]) {
  const accounts = new Map<string, string>();
  const keys = new Set<string>();
  return serveStandIn(async (req) => {
    const path = new URL(req.url).pathname;
    const auth = req.headers.get("authorization") ?? "";
    seen.push(`${req.method} ${path} ${auth}`);
    const body = req.method === "GET" ? {} : await req.json();
    if (path === "/api/accounts/") {
      if (accounts.has(body.email)) return Response.json({ email: ["exists"] }, { status: 400 });
      accounts.set(body.email, body.password);
      return Response.json({ email: body.email, name: body.name }, { status: 201 });
    }
    if (path === "/api/accounts/token/") {
      if (accounts.get(body.email) !== body.password) {
        return Response.json({ non_field_errors: ["Unable to log in"] }, { status: 400 });
      }
      const key = `k${keys.size}f00d`;
      keys.add(key);
      return Response.json({ token: key });
    }
    if (path === "/api/notes/" && !keys.has(auth.replace(/^Token /, ""))) {
      return Response.json({ detail: "Invalid token." }, { status: 401 });
    }
    return Response.json([]);
  });
}

Deno.test("convert openapi: a token login under the framework's blanket requirement signs the suite in", async () => {
  const seen: string[] = [];
  const { summary, runs } = await convertAndRunSuite(
    document(BLANKET, [{ tokenAuth: [] }]),
    standIn(seen),
    { runs: 2 },
  );
  assert.doesNotMatch(summary, /API_KEY|TOKEN/, summary);
  for (const run of runs) assert.equal(run.code, 0, run.stdout + run.stderr + seen.join("\n"));
  assert.ok(seen.some((s) => /^GET \/api\/notes\/ Token k\d+f00d$/.test(s)), seen.join("\n"));
});

Deno.test("convert openapi: a token mint under a session other operations require still needs that session", async () => {
  const { summary } = await convertAndRunSuite(
    document([{ cookieAuth: [] }], [{ cookieAuth: [] }, { tokenAuth: [] }]),
    standIn([]),
    { runs: 0 },
  );
  assert.match(summary, /API_KEY/, summary);
});

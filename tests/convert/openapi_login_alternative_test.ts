/**
 * `convert openapi` on a Django REST framework document whose views accept
 * a session cookie or a JWT bearer: drf-spectacular lists the project's
 * authentications in its settings' order, so a project naming
 * `SessionAuthentication` before simplejwt's gets
 * `[{cookieAuth: []}, {jwtAuth: []}]` on every view. The document's login
 * (simplejwt's pair view) answers the bearer's token; nothing in it hands
 * out the `sessionid` cookie. The suite took the first alternative, asked
 * for `API_KEY` (the cookie) and sent nothing without it. Of a
 * requirement's alternatives, one the suite's own login serves is the one
 * to send; the first stays where the login serves none. The stand-in on
 * 127.0.0.1 answers as the framework does.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

/** A JSON body of one schema. */
function json(name: string) {
  return { content: { "application/json": { schema: { $ref: `#/components/schemas/${name}` } } } };
}

/** A document whose notes need `notesSecurity`, beside a sign-up and a JWT login. */
function document(notesSecurity: unknown[]) {
  return {
    openapi: "3.0.3",
    info: { title: "notes", version: "1.0.0" },
    paths: {
      "/api/register/": {
        post: {
          operationId: "register_create",
          tags: ["register"],
          requestBody: { required: true, ...json("Register") },
          responses: { 201: { description: "", ...json("Register") } },
        },
      },
      "/api/token/": {
        post: {
          operationId: "token_create",
          tags: ["token"],
          requestBody: { required: true, ...json("TokenObtainPair") },
          responses: { 200: { description: "", ...json("TokenObtainPair") } },
        },
      },
      "/api/notes/": {
        post: {
          operationId: "notes_create",
          tags: ["notes"],
          security: notesSecurity,
          requestBody: { required: true, ...json("Note") },
          responses: { 201: { description: "", ...json("Note") } },
        },
      },
    },
    components: {
      schemas: {
        Register: {
          type: "object",
          properties: {
            username: { type: "string", maxLength: 150 },
            password: { type: "string", writeOnly: true },
          },
          required: ["username", "password"],
        },
        TokenObtainPair: {
          type: "object",
          properties: {
            username: { type: "string", writeOnly: true },
            password: { type: "string", writeOnly: true },
            access: { type: "string", readOnly: true },
            refresh: { type: "string", readOnly: true },
          },
          required: ["access", "password", "refresh", "username"],
        },
        Note: {
          type: "object",
          properties: { id: { type: "integer", readOnly: true }, text: { type: "string" } },
          required: ["id", "text"],
        },
      },
      securitySchemes: {
        cookieAuth: { type: "apiKey", in: "cookie", name: "sessionid" },
        jwtAuth: { type: "http", scheme: "bearer", bearerFormat: "JWT" },
      },
    },
  };
}

/** The stand-in: a sign-up, a JWT login, and notes made only with a token it issued. */
function standIn(seen: string[]) {
  const accounts = new Map<string, string>();
  const tokens = new Set<string>();
  return serveStandIn(async (req) => {
    const path = new URL(req.url).pathname;
    const auth = req.headers.get("authorization") ?? "";
    seen.push(`${req.method} ${path} ${auth}`);
    const body = await req.json();
    if (path === "/api/register/") {
      accounts.set(body.username, body.password);
      return Response.json({ username: body.username }, { status: 201 });
    }
    if (path === "/api/token/") {
      if (accounts.get(body.username) !== body.password) {
        return Response.json({ detail: "No active account" }, { status: 401 });
      }
      const token = `t${tokens.size}jwt`;
      tokens.add(token);
      return Response.json({ access: token, refresh: `${token}r` });
    }
    if (!tokens.has(auth.replace(/^Bearer /, ""))) {
      return Response.json({ detail: "Authentication credentials were not provided." }, {
        status: 403,
      });
    }
    return Response.json({ id: 1, text: body.text }, { status: 201 });
  });
}

Deno.test("convert openapi: a session cookie listed before the login's bearer leaves the bearer sent", async () => {
  const seen: string[] = [];
  const { summary, runs } = await convertAndRunSuite(
    document([{ cookieAuth: [] }, { jwtAuth: [] }]),
    standIn(seen),
    { runs: 2 },
  );
  assert.doesNotMatch(summary, /API_KEY|API_TOKEN/, summary);
  for (const run of runs) assert.equal(run.code, 0, run.stdout + run.stderr + seen.join("\n"));
  assert.ok(seen.some((s) => /^POST \/api\/notes\/ Bearer t\d+jwt$/.test(s)), seen.join("\n"));
});

Deno.test("convert openapi: a requirement whose alternatives the login serves none of keeps its first", async () => {
  const { summary } = await convertAndRunSuite(
    document([{ cookieAuth: [] }]),
    standIn([]),
    { runs: 0 },
  );
  assert.match(summary, /API_KEY/, summary);
});

/**
 * `convert openapi`: a sign-up under the root's security whose password is
 * marked `format: password` where the login's is not (or the other way
 * round) still takes the login's credentials. Found on an Express todo API
 * documented by swagger-jsdoc comments, measured by hand
 * (docs/real-servers.md): its root `security: [{bearerAuth: []}]` covers
 * its `POST /auth/register {username, email, password}` (the password
 * `format: password`, answering 201) and its `POST /auth/login {username,
 * password}` (a plain text); the sign-up was not read as the login's, so no
 * operation made the run's account, and the summary asked for
 * `LOGIN_USERNAME` and `LOGIN_PASSWORD`, "no operation registers one". The
 * specification calls `password` a hint to a user interface to hide what is
 * typed: the value is the same text. Any other format still tells two
 * members apart (an email is no user name).
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const json = (schema: unknown) => ({ content: { "application/json": { schema } } });
const plain = { type: "string" };
const hidden = { type: "string", format: "password" };

/** The document: the sign-up's password `signUpPassword`, the login's `loginPassword`. */
function document(signUpPassword: unknown, loginPassword: unknown) {
  return {
    openapi: "3.0.0",
    info: { title: "Todos", version: "1" },
    security: [{ bearerAuth: [] }],
    components: { securitySchemes: { bearerAuth: { type: "http", scheme: "bearer" } } },
    paths: {
      "/auth/register": {
        post: {
          requestBody: json({
            type: "object",
            required: ["username", "email", "password"],
            properties: {
              username: plain,
              email: { type: "string", format: "email" },
              password: signUpPassword,
            },
          }),
          responses: { "201": { description: "Registered" }, "400": { description: "Invalid" } },
        },
      },
      "/auth/login": {
        post: {
          requestBody: json({
            type: "object",
            required: ["username", "password"],
            properties: { username: plain, password: loginPassword },
          }),
          responses: {
            "200": {
              description: "Token",
              ...json({ type: "object", properties: { token: plain } }),
            },
          },
        },
      },
      "/todos": {
        post: {
          requestBody: json({ type: "object", required: ["title"], properties: { title: plain } }),
          responses: { "201": { description: "Created" } },
        },
      },
    },
  };
}

/** Accounts the sign-up makes, tokens the login issues, every other call checked. */
function standIn() {
  const accounts = new Map<string, string>();
  const tokens = new Set<string>();
  const counted = { signUps: 0, logins: 0, todos: 0, refused: 0 };
  const server = serveStandIn(async (req) => {
    const path = new URL(req.url).pathname;
    const body = await req.json();
    if (path === "/auth/register") {
      if (!body.username || !body.email || !body.password || accounts.has(body.username)) {
        return Response.json({ error: "Invalid" }, { status: 400 });
      }
      accounts.set(body.username, body.password);
      counted.signUps++;
      return Response.json({ message: "Registered" }, { status: 201 });
    }
    if (path === "/auth/login") {
      if (accounts.get(body.username) !== body.password) {
        counted.refused++;
        return Response.json({ error: "Invalid credentials" }, { status: 400 });
      }
      counted.logins++;
      const token = crypto.randomUUID();
      tokens.add(token);
      return Response.json({ token });
    }
    const token = /^Bearer (.+)$/.exec(req.headers.get("authorization") ?? "")?.[1];
    if (!token || !tokens.has(token)) {
      counted.refused++;
      return Response.json({ error: "No token" }, { status: 401 });
    }
    counted.todos++;
    return Response.json({ title: body.title }, { status: 201 });
  });
  return { server, counted };
}

for (
  const [where, signUp, login] of [
    ["the sign-up's", hidden, plain],
    ["the login's", plain, hidden],
  ] as const
) {
  Deno.test(`convert openapi: a password marked hidden in ${where} body alone still makes a sign-up`, async () => {
    const { server, counted } = standIn();
    const { runs, summary } = await convertAndRunSuite(document(signUp, login), server, {
      runs: 2,
    });
    assert.doesNotMatch(summary, /LOGIN_USERNAME|LOGIN_PASSWORD/, summary);
    for (const run of runs) assert.equal(run.code, 0, summary + run.stdout + run.stderr);
    assert.deepEqual(counted, { signUps: 2, logins: 2, todos: 2, refused: 0 });
  });
}

Deno.test("convert openapi: a member of another format is still another credential", async () => {
  const { server } = standIn();
  const mail = { type: "string", format: "email" };
  const { summary } = await convertAndRunSuite(document(hidden, mail), server, { runs: 0 });
  assert.match(summary, /LOGIN_USERNAME: .*no operation registers one/, summary);
});

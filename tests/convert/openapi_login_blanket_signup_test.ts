/**
 * `convert openapi` on a sign-up that states the very requirement its login
 * states. A FastAPI team task manager (measured by hand on 2026-12-01,
 * docs/real-servers.md) appends `{BearerAuth: []}` to the `security` of
 * every operation, its `POST /login` (an OAuth2 form answering the token)
 * and its `POST /register` (answering the account, `UserOut`, which
 * `GET /profile` answers too) included. A sign-up stating a requirement of
 * its own was read as an administrator's create ("its author said an account
 * is needed"), so no operation made the run's account and the summary asked
 * for `LOGIN_USERNAME` and `LOGIN_PASSWORD`. But the login states it too,
 * and the login is what hands that token out: a requirement no caller can
 * meet before signing in is one written onto every operation, not a word
 * about who may sign up. A sign-up stating the same requirement as its login
 * is read as one that only inherits it (openapi_blanket_signup_test.ts); one
 * stating a requirement its login does not (an open login) still asks for
 * the user's account.
 *
 * The stand-in below answers as that server does, on 127.0.0.1, and checks
 * every token it issued.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const text = { type: "string" };
const json = (schema: unknown) => ({ content: { "application/json": { schema } } });
const ref = (name: string) => json({ $ref: `#/components/schemas/${name}` });
const bearer = [{ BearerAuth: [] }];

/** The document; `loginStates` gives the login the requirement every other operation states. */
function document(loginStates: boolean) {
  return {
    openapi: "3.0.2",
    info: { title: "Team tasks", version: "1.0.0" },
    paths: {
      "/register": {
        post: {
          security: bearer,
          requestBody: { required: true, ...ref("UserCreate") },
          responses: { "200": { description: "", ...ref("UserOut") } },
        },
      },
      "/profile": {
        get: { security: bearer, responses: { "200": { description: "", ...ref("UserOut") } } },
      },
      "/login": {
        post: {
          ...(loginStates ? { security: bearer } : {}),
          requestBody: {
            required: true,
            content: {
              "application/x-www-form-urlencoded": {
                schema: {
                  type: "object",
                  required: ["username", "password"],
                  properties: { username: text, password: { type: "string", format: "password" } },
                },
              },
            },
          },
          responses: {
            "200": {
              description: "",
              ...json({ properties: { access_token: text, token_type: text } }),
            },
          },
        },
      },
    },
    components: {
      securitySchemes: { BearerAuth: { type: "http", scheme: "bearer", bearerFormat: "JWT" } },
      schemas: {
        UserCreate: {
          type: "object",
          required: ["username", "password", "is_admin"],
          properties: { username: text, password: text, is_admin: { type: "boolean" } },
        },
        UserOut: {
          type: "object",
          required: ["id", "username", "is_admin"],
          properties: { id: { type: "integer" }, username: text, is_admin: { type: "boolean" } },
        },
      },
    },
  };
}

/** An open sign-up and form login, as the server runs them; `/profile` only with a token. */
function standIn() {
  const accounts = new Map<string, { id: number; password: string; is_admin: boolean }>();
  const tokens = new Map<string, string>();
  const counted = { signUps: 0, logins: 0, unauthorized: 0 };
  const server = serveStandIn(async (req) => {
    const route = `${req.method} ${new URL(req.url).pathname}`;
    if (route === "POST /register") {
      const { username, password, is_admin } = await req.json();
      if (accounts.has(username)) return Response.json({ detail: "taken" }, { status: 400 });
      accounts.set(username, { id: accounts.size + 1, password, is_admin });
      counted.signUps++;
      return Response.json({ id: accounts.size, username, is_admin });
    }
    if (route === "POST /login") {
      const form = new URLSearchParams(await req.text());
      const username = form.get("username") ?? "";
      if (accounts.get(username)?.password !== form.get("password")) {
        return Response.json({ detail: "Invalid credentials" }, { status: 401 });
      }
      counted.logins++;
      const access_token = crypto.randomUUID();
      tokens.set(access_token, username);
      return Response.json({ access_token, token_type: "bearer" });
    }
    const name = tokens.get(req.headers.get("authorization")?.replace(/^Bearer /, "") ?? "");
    const account = name === undefined ? undefined : accounts.get(name);
    if (!account) {
      counted.unauthorized++;
      return Response.json({ detail: "Not authenticated" }, { status: 401 });
    }
    return Response.json({ id: account.id, username: name, is_admin: account.is_admin });
  });
  return { server, counted };
}

Deno.test("convert openapi: a sign-up stating the requirement its login states makes the run's account", async () => {
  const { server, counted } = standIn();
  const { runs, summary } = await convertAndRunSuite(document(true), server, { runs: 2 });
  assert.doesNotMatch(summary, /LOGIN_USERNAME|LOGIN_PASSWORD|API_TOKEN/, summary);
  for (const run of runs) assert.equal(run.code, 0, `${summary}\n${run.stdout}\n${run.stderr}`);
  assert.deepEqual(counted, { signUps: 2, logins: 2, unauthorized: 0 });
});

Deno.test("convert openapi: a sign-up stating a requirement its open login does not state still asks for an account", async () => {
  const { server } = standIn();
  const { summary } = await convertAndRunSuite(document(false), server, { runs: 0 });
  assert.match(summary, /LOGIN_USERNAME: .*no operation registers one/, summary);
});

/**
 * `convert openapi` on a document whose open sign-in is no suite's login
 * (it answers no token, and the document declares a bearer scheme it does
 * not name) sends that sign-in, in its own tag's flow, the account the
 * run's sign-up makes. Found on an Express issue tracker (measured by hand,
 * see docs/real-servers.md): `POST /register` under one tag, `POST /login`
 * (a session, no token) under another; the login's flow sent the run's
 * made-up name and password to an account nothing had registered, and was
 * answered 401 on every run. The evidence is the document's: the sign-up
 * is the open create that takes every credential field the sign-in takes
 * (the rule that finds a token login's sign-up), so it is the sign-in's
 * producer, copied into its flow before it as any producer is.
 *
 * The stand-in runs on 127.0.0.1: its login knows only the accounts its
 * sign-up made; its writes want any bearer token (the user's `API_TOKEN`).
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";
import { askedVariables } from "../real/measure.ts";

const json = (schema: unknown) => ({ content: { "application/json": { schema } } });
const TEXT = { type: "string" };
const ACCOUNT = {
  type: "object",
  properties: { username: TEXT, password: TEXT },
  required: ["username", "password"],
};
// The sign-up answers the new account's id, the sign-in the account: different answers.
const REGISTERED = { type: "object", properties: { message: TEXT, user_id: { type: "integer" } } };
const USER = { type: "object", properties: { id: { type: "integer" }, username: TEXT } };
const SIGNED_IN = { type: "object", properties: { message: TEXT, user: USER } };
const ID = [{ name: "noteId", in: "path", required: true, schema: TEXT }];

const DOC = {
  openapi: "3.0.3",
  info: { title: "Sign-in apart", version: "1" },
  components: { securitySchemes: { bearerAuth: { type: "http", scheme: "bearer" } } },
  paths: {
    "/register": {
      post: {
        tags: ["Accounts"],
        requestBody: { required: true, ...json(ACCOUNT) },
        responses: { "201": { description: "Registered.", ...json(REGISTERED) } },
      },
    },
    "/login": {
      post: {
        tags: ["Sessions"],
        requestBody: { required: true, ...json(ACCOUNT) },
        responses: {
          "200": { description: "Signed in: a session.", ...json(SIGNED_IN) },
          "401": { description: "Wrong name or password." },
        },
      },
    },
    "/notes": {
      post: {
        tags: ["Notes"],
        requestBody: { required: true, ...json({ type: "object", properties: { text: TEXT } }) },
        responses: { "201": { description: "Made.", ...json({ properties: { id: TEXT } }) } },
      },
    },
    "/notes/{noteId}": {
      delete: {
        tags: ["Notes"],
        security: [{ bearerAuth: [] }],
        parameters: ID,
        responses: { "204": { description: "Gone." } },
      },
    },
  },
};

function standIn() {
  const accounts = new Map<string, string>();
  const seen = { signups: 0, logins: 0, refused: 0 };
  let notes = 0;
  const server = serveStandIn(async (req) => {
    const path = new URL(req.url).pathname;
    const body = req.method === "POST" ? await req.json().catch(() => ({})) : {};
    if (path === "/register") {
      if (!body.username || accounts.has(body.username)) return new Response(null, { status: 409 });
      accounts.set(body.username, body.password);
      seen.signups++;
      return Response.json({ message: "Registered.", user_id: accounts.size }, { status: 201 });
    }
    if (path === "/login") {
      if (!body.username || accounts.get(body.username) !== body.password) {
        seen.refused++;
        return Response.json({ message: "Invalid username or password." }, { status: 401 });
      }
      seen.logins++;
      return Response.json({
        message: "Session created.",
        user: { id: 1, username: body.username },
      });
    }
    if (req.method === "POST") return Response.json({ id: `n${++notes}` }, { status: 201 });
    if (!req.headers.get("authorization")?.startsWith("Bearer ")) {
      return new Response(null, { status: 401 });
    }
    return new Response(null, { status: 204 });
  });
  return { server, seen };
}

async function signsInAsSignUp(doc: unknown) {
  const { server, seen } = standIn();
  const env = { API_TOKEN: "given-by-the-user" };
  const { summary, runs, flows } = await convertAndRunSuite(doc, server, {
    runs: 2,
    env: [env, env],
  });
  assert.deepEqual([...askedVariables(summary).keys()], ["BASE_URL", "API_TOKEN"], summary);
  for (const run of runs) assert.equal(run.code, 0, run.stdout + run.stderr);
  assert.equal(seen.refused, 0, JSON.stringify(seen));
  assert.equal(seen.logins, 2, JSON.stringify(seen));
  // The sessions flow signs up before it signs in, with the same made-up account.
  const sessions = flows.get("sessions.yaml") ?? "";
  const [register, login] = ["url: ${ENV.BASE_URL}/register", "url: ${ENV.BASE_URL}/login"]
    .map((u) => sessions.indexOf(u));
  assert.ok(register >= 0 && register < login, sessions);
}

Deno.test("convert openapi: an open sign-in that is no suite's login signs in as the run's sign-up in its own flow", async () => {
  await signsInAsSignUp(DOC);
});

// The tracker's document requires its bearer scheme at the root: of the sign-up and sign-in too.
Deno.test("convert openapi: a sign-in under the root's blanket requirement signs in as the run's sign-up", async () => {
  await signsInAsSignUp({ ...DOC, security: [{ bearerAuth: [] }] });
});

/**
 * `convert openapi` on a document whose one `security` requirement sits at
 * its root, so that every operation inherits it, its sign-up and login
 * included (LoopBack 4's JWT example adds `security: [{jwt: []}]` to the
 * whole API and overrides it nowhere). The login was already read as needing
 * nothing (it answers the token), but the sign-up, which answers the account
 * and no token, was read as needing the login's token: no operation made the
 * account, and the summary asked the user for `LOGIN_EMAIL` and
 * `LOGIN_PASSWORD`. A sign-up cannot need the token of the account it makes,
 * so a sign-up (it takes the login's credentials and answers the account
 * they name; openapi_evidence_signup_test.ts widens it to paths of any name)
 * that only inherits the root's requirement now makes the run's account, and the run
 * needs `BASE_URL` alone. A sign-up that states its own requirement keeps it:
 * there the author said an account is needed (an admin's register). The
 * stand-in runs on 127.0.0.1 and checks every token it issued.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const json = (schema: unknown) => ({ content: { "application/json": { schema } } });
const credentials = {
  type: "object",
  required: ["email", "password"],
  properties: { email: { type: "string", format: "email" }, password: { type: "string" } },
};
const user = { type: "object", properties: { id: { type: "string" }, email: { type: "string" } } };
const note = { type: "object", required: ["title"], properties: { title: { type: "string" } } };

/** The document; `said` gives the sign-up a requirement of its own, the root's repeated. */
function document(said: boolean, signUpPath = "/signup") {
  return {
    openapi: "3.0.0",
    info: { title: "blanket", version: "1" },
    security: [{ jwt: [] }],
    components: { securitySchemes: { jwt: { type: "http", scheme: "bearer" } } },
    paths: {
      [signUpPath]: {
        post: {
          ...(said ? { security: [{ jwt: [] }] } : {}),
          requestBody: {
            required: true,
            ...json({ ...credentials, required: ["email", "password"] }),
          },
          responses: { 200: { description: "User", ...json(user) } },
        },
      },
      "/users/login": {
        post: {
          requestBody: { required: true, ...json(credentials) },
          responses: {
            200: {
              description: "Token",
              ...json({ type: "object", properties: { token: { type: "string" } } }),
            },
          },
        },
      },
      "/notes": {
        post: {
          requestBody: { required: true, ...json(note) },
          responses: { 200: { description: "Note", ...json(note) } },
        },
      },
      "/whoAmI": { get: { responses: { 200: { description: "" } } } },
    },
  };
}

/** Accounts made by the sign-up, tokens issued by the login, every other call checked. */
function standIn(signUpPath: string) {
  const accounts = new Map<string, string>();
  const tokens = new Set<string>();
  const counted = { signUps: 0, logins: 0, unauthorized: 0 };
  const server = serveStandIn(async (req) => {
    const path = new URL(req.url).pathname;
    if (path === signUpPath) {
      const { email, password } = await req.json();
      if (!email || !password || accounts.has(email)) return new Response(null, { status: 422 });
      accounts.set(email, password);
      counted.signUps++;
      return Response.json({ id: crypto.randomUUID(), email });
    }
    if (path === "/users/login") {
      const { email, password } = await req.json();
      if (accounts.get(email) !== password) return new Response(null, { status: 401 });
      counted.logins++;
      const token = crypto.randomUUID();
      tokens.add(token);
      return Response.json({ token });
    }
    const token = /^Bearer (.+)$/.exec(req.headers.get("authorization") ?? "")?.[1];
    if (!token || !tokens.has(token)) {
      counted.unauthorized++;
      return new Response(null, { status: 401 });
    }
    return path === "/notes" ? Response.json(await req.json()) : Response.json("me");
  });
  return { server, counted };
}

for (const path of ["/signup", "/auth/register"]) {
  Deno.test(`convert openapi: a sign-up (${path}) that only inherits the root's security makes the run's account`, async () => {
    const { server, counted } = standIn(path);
    const { runs, summary } = await convertAndRunSuite(document(false, path), server, { runs: 2 });
    assert.doesNotMatch(summary, /LOGIN_EMAIL|LOGIN_PASSWORD/, summary);
    for (const run of runs) assert.equal(run.code, 0, summary + run.stdout + run.stderr);
    assert.deepEqual(counted, { signUps: 2, logins: 2, unauthorized: 0 });
  });
}

Deno.test("convert openapi: a sign-up that states its own security still asks for the user's account", async () => {
  const { server } = standIn("/signup");
  const { summary } = await convertAndRunSuite(document(true), server, { runs: 0 });
  assert.match(summary, /LOGIN_EMAIL: .*no operation registers one/, summary);
});

/**
 * `convert openapi`: a document that puts its bearer on every operation,
 * its sign-up and sign-in too, and requires a cookie scheme beside it at
 * the top (better-auth's `openAPI()` plugin; see docs/real-servers.md).
 * The sign-in takes a password and answers a `token`: it is where the
 * credential comes from, so what it and its sign-up declare is not sent,
 * and the summary asks for `BASE_URL` alone (it had asked for `API_TOKEN`,
 * `LOGIN_EMAIL` and `LOGIN_PASSWORD`). The cookie scheme says the server
 * reads a cookie, which only the sign-in's answer sets: the flow keeps a
 * cookie jar. A change of password (a current and a new one) that answers
 * a token is no sign-in of the user's own account, and a revoke of the
 * session ends it like a sign-out, so it runs last (in the middle of
 * better-auth's flow, it made every step after it answer 401).
 *
 * The stand-in runs on 127.0.0.1 and, like better-auth without its bearer
 * plugin, reads only the session cookie.
 */
import assert from "node:assert/strict";
import { askedVariables } from "../real/measure.ts";
import { convertAndRunAsUser } from "../support/openapi_login_run.ts";
import { serveStandIn } from "../support/openapi_suite.ts";

const json = (schema: unknown) => ({ content: { "application/json": { schema } } });
const object = (properties: object, required?: string[]) => ({
  type: "object",
  properties,
  ...(required ? { required } : {}),
});
const text = { type: "string" };
const answer = (schema: unknown) => ({ "200": { description: "OK", ...json(schema) } });
const TOKEN = answer(object({ token: text, user: object({ id: text }) }, ["token"]));
const OK = answer(object({ status: { type: "boolean" } }));
const bearer = [{ bearerAuth: [] }];
const post = (body: unknown, responses: unknown) => ({
  post: { security: bearer, requestBody: json(body), responses },
});

const DOC = {
  openapi: "3.1.1",
  info: { title: "Auth", version: "0" },
  security: [{ apiKeyCookie: [], bearerAuth: [] }],
  components: {
    securitySchemes: {
      apiKeyCookie: { type: "apiKey", in: "cookie", name: "apiKeyCookie" },
      bearerAuth: { type: "http", scheme: "bearer" },
    },
  },
  paths: {
    "/revoke-session": post(object({ token: text }, ["token"]), OK),
    "/sign-up/email": post(
      object({ name: text, email: text, password: text }, [
        "name",
        "email",
        "password",
      ]),
      TOKEN,
    ),
    "/sign-in/email": post(
      object({ email: text, password: text, rememberMe: text }, ["email", "password"]),
      TOKEN,
    ),
    "/change-password": post(
      object({ newPassword: text, currentPassword: text }, ["newPassword", "currentPassword"]),
      TOKEN,
    ),
    "/update-user": post(object({ name: text }), OK),
    "/get-session": {
      get: { security: bearer, responses: answer(object({ user: object({ id: text }) })) },
    },
  },
};

Deno.test("convert openapi: a sign-in under the document's blanket bearer signs in, and its cookie is kept", async () => {
  const accounts = new Map<string, string>();
  const sessions = new Map<string, string>();
  const seen = { refused: 0, revoked: 0 };
  const server = serveStandIn(async (req) => {
    const { pathname } = new URL(req.url);
    const body = req.method === "POST" ? await req.json().catch(() => ({})) : {};
    const session = (email: string) => {
      const token = crypto.randomUUID();
      sessions.set(token, email);
      const headers = { "set-cookie": `auth.session_token=${token}; Path=/; HttpOnly` };
      return Response.json({ token, user: { id: email } }, { headers });
    };
    if (pathname === "/sign-up/email") {
      if (!body.name || !body.email || !body.password) return new Response(null, { status: 400 });
      accounts.set(body.email, body.password);
      return session(body.email);
    }
    if (pathname === "/sign-in/email") {
      if (accounts.get(body.email) !== body.password) return new Response(null, { status: 401 });
      return session(body.email);
    }
    const cookie = /auth\.session_token=([^;]+)/.exec(req.headers.get("cookie") ?? "")?.[1];
    const email = cookie === undefined ? undefined : sessions.get(cookie);
    if (email === undefined) {
      seen.refused++;
      return Response.json({ message: "UNAUTHORIZED" }, { status: 401 });
    }
    if (pathname === "/get-session") return Response.json({ user: { id: email } });
    if (pathname === "/change-password") {
      if (accounts.get(email) !== body.currentPassword) return new Response(null, { status: 400 });
      accounts.set(email, body.newPassword);
      return Response.json({ token: cookie, user: { id: email } });
    }
    if (pathname === "/update-user") return Response.json({ status: true });
    // Like better-auth's, the revoke ends the session whose token its body names.
    seen.revoked += sessions.delete(body.token) ? 1 : 0;
    return Response.json({ status: true });
  });
  const got = await convertAndRunAsUser(DOC, server, (base) => ({ BASE_URL: base }));
  const flows = [...got.flows.values()].join("\n");
  assert.deepEqual([...askedVariables(got.summary).keys()], ["BASE_URL"], got.summary);
  assert.match(flows, /cookie_jar: true/);
  assert.equal(got.run.code, 0, got.run.stdout + got.run.stderr + flows);
  assert.ok(got.steps.every((s) => s.status === "passed"), JSON.stringify(got.steps));
  assert.equal(seen.refused, 0);
  assert.equal(seen.revoked, 1);
});

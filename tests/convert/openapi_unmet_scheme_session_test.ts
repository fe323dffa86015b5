/**
 * `convert openapi` on a document whose security nothing can meet: it
 * declares a scheme no requirement names, and its one requirement names a
 * scheme it does not declare. Found on Ts.ED's Passport.js example
 * (`@tsed/swagger`, `@tsed/passport`, express-session; measured by hand, see
 * docs/real-servers.md): it declares `jwt` (http bearer) and requires it
 * nowhere, requires `auth:basic` (declared nowhere) of `GET
 * /rest/auth/userinfo` alone, and its `POST /rest/auth/login {email,
 * password}` and `POST /rest/auth/signup` answer the user, no token, with
 * the session cookie every calendar wants (401 without it). Read as
 * declaring security, the document had no login: the login was sent an
 * account nobody had made (before the sign-up) and no other step carried a
 * session, 2 of 17 answered 2xx. Such a document is read as declaring no
 * security: its login answering no token is its session login
 * (session_login.ts), each flow signs up the run's own account and keeps a
 * cookie jar. A requirement naming a declared scheme is read as before
 * (openapi_session_login_test.ts, openapi_cookie_scheme_session_test.ts).
 *
 * The stand-in runs on 127.0.0.1 and refuses every call but the sign-up
 * and the login without the session cookie they set.
 */
import assert from "node:assert/strict";
import { convertAndRunAsUser } from "../support/openapi_login_run.ts";
import { serveStandIn } from "../support/openapi_suite.ts";

const json = (schema: unknown) => ({ content: { "application/json": { schema } } });
const USER = {
  type: "object",
  properties: {
    _id: { type: "string" },
    email: { type: "string" },
    firstName: { type: "string" },
  },
};
const CREDENTIALS = {
  type: "object",
  properties: {
    password: { type: "string", minLength: 1 },
    email: { type: "string", format: "email" },
  },
  required: ["password", "email"],
};
const NOTE = { type: "object", properties: { _id: { type: "string" }, name: { type: "string" } } };

/** The example's shape: sign-up, login, one resource; `jwt` declared, `auth:basic` required. */
function document(requireDeclared: boolean) {
  return {
    openapi: "3.0.1",
    info: { title: "Api documentation", version: "1.0.0" },
    components: { securitySchemes: { jwt: { type: "http", scheme: "bearer" } } },
    paths: {
      "/rest/auth/signup": {
        post: {
          tags: ["PassportCtrl"],
          requestBody: json({
            ...CREDENTIALS,
            properties: { ...CREDENTIALS.properties, firstName: { type: "string", minLength: 1 } },
            required: ["password", "email", "firstName"],
          }),
          responses: { "201": { description: "Created", ...json(USER) } },
        },
      },
      "/rest/auth/login": {
        post: {
          tags: ["PassportCtrl"],
          requestBody: json(CREDENTIALS),
          responses: {
            "200": { description: "Success", ...json(USER) },
            "400": { description: "Validation error" },
          },
        },
      },
      "/rest/auth/userinfo": {
        get: {
          tags: ["PassportCtrl"],
          security: [{ [requireDeclared ? "jwt" : "auth:basic"]: [] }],
          responses: { "200": { description: "Success", ...json(USER) } },
        },
      },
      "/rest/notes": {
        get: {
          tags: ["NotesCtrl"],
          responses: { "200": { description: "Success", ...json({ type: "array", items: NOTE }) } },
        },
        post: {
          tags: ["NotesCtrl"],
          requestBody: json({ type: "object", properties: { name: { type: "string" } } }),
          responses: { "201": { description: "Created", ...json(NOTE) } },
        },
      },
    },
  };
}

/** Accounts and notes in memory; a session is made by a sign-up or a login. */
function standIn() {
  const accounts = new Map<string, string>();
  const sessions = new Set<string>();
  const notes: { _id: string; name: string }[] = [];
  const counts = { refused: 0, signedIn: 0 };
  const server = serveStandIn(async (req) => {
    const { pathname } = new URL(req.url);
    const body = req.method === "POST" ? await req.json().catch(() => ({})) : {};
    const session = (status: number, user: unknown) => {
      counts.signedIn++;
      const sid = crypto.randomUUID();
      sessions.add(sid);
      const headers = { "set-cookie": `connect.sid=${sid}; Path=/; HttpOnly` };
      return Response.json(user, { status, headers });
    };
    if (req.method === "POST" && pathname === "/rest/auth/signup") {
      if (!body.email || !body.password || accounts.has(body.email)) {
        return Response.json({ message: "Email is already registered" }, { status: 401 });
      }
      accounts.set(body.email, body.password);
      return session(201, { _id: crypto.randomUUID(), email: body.email });
    }
    if (req.method === "POST" && pathname === "/rest/auth/login") {
      if (!body.password || accounts.get(body.email) !== body.password) {
        return Response.json({ message: "Wrong credentials" }, { status: 401 });
      }
      return session(200, { _id: crypto.randomUUID(), email: body.email });
    }
    const sid = /connect\.sid=([^;]+)/.exec(req.headers.get("cookie") ?? "")?.[1];
    if (!sid || !sessions.has(sid)) {
      counts.refused++;
      return Response.json({ message: "Unauthorized" }, { status: 401 });
    }
    if (pathname === "/rest/auth/userinfo") return Response.json({ _id: "u", email: "e" });
    if (req.method === "POST") {
      notes.push({ _id: crypto.randomUUID(), name: String(body.name) });
      return Response.json(notes.at(-1), { status: 201 });
    }
    return Response.json(notes);
  });
  return { server, counts };
}

Deno.test("convert openapi: a document whose declared scheme nothing requires and whose one requirement names an undeclared scheme signs in by its login's session cookie", async () => {
  const { server, counts } = standIn();
  const { summary, flows, run, steps } = await convertAndRunAsUser(
    document(false),
    server,
    (base) => ({ BASE_URL: base }),
  );
  assert.match(summary, /session cookie ← POST \/rest\/auth\/login/);
  assert.ok(!/LOGIN_|API_TOKEN|API_KEY/.test(summary), summary);
  assert.match(flows.get("notes_ctrl.yaml")!, /cookie_jar: true/);
  assert.equal(run.code, 0, run.stdout + run.stderr);
  assert.ok(steps.length >= 5 && steps.every((s) => s.status === "passed"), JSON.stringify(steps));
  assert.equal(counts.refused, 0);
});

Deno.test("convert openapi: a requirement naming the declared scheme keeps the document read as declaring security", async () => {
  const { server } = standIn();
  const { summary } = await convertAndRunAsUser(document(true), server, (base) => ({
    BASE_URL: base,
    API_TOKEN: "t",
  }));
  assert.ok(!/session cookie/.test(summary), summary);
});

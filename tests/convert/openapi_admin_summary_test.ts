/**
 * `convert openapi`: an operation whose own summary or description says only
 * an administrator may call it ("Toggle user active status (Admin only)",
 * "Only administrators may list the audit log") is sent with `ADMIN_TOKEN`
 * and skipped without it, as one whose 403 says so is. An Express events API
 * (swagger-jsdoc) documents a 403 "Admin access required" on two of its
 * administrators' operations but only the words "(Admin only)" in the
 * summary of four more: the run's own sign-up was sent to its user status
 * toggle, and the server refused it 403 on every run. Words that name an administrator
 * without restricting the caller ("Create an admin account", "Admins see
 * every note, others their own") leave the operation to the run's account.
 * The stand-in on 127.0.0.1 refuses an ordinary account's token on the
 * administrators' operations and counts it.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";
import { answers, signUpPaths, text } from "../support/openapi_doc_parts.ts";

const credentials = { email: { type: "string", format: "email" }, password: text };
const user = { type: "object", properties: { id: { type: "integer" }, email: text } };
const token = { type: "object", properties: { access_token: text, user } };
const list = { type: "array", items: text };

const document = {
  openapi: "3.0.0",
  info: { title: "admins said", version: "1" },
  security: [{ bearer: [] }],
  components: { securitySchemes: { bearer: { type: "http", scheme: "bearer" } } },
  paths: {
    ...signUpPaths(credentials, token),
    "/auth/profile": { get: { summary: "Admins see more, others their own", ...ok(user) } },
    "/admins/count": { get: { summary: "Count the admin accounts", ...ok(list) } },
    "/toggle": { get: { summary: "Toggle user active status (Admin only)", ...ok(list) } },
    "/audit": {
      get: { summary: "Audit log", description: "Only administrators may list it.", ...ok(list) },
    },
    "/purge": { get: { summary: "Purge [admin-only]", ...ok(list) } },
  },
};

/** An operation's answers: 200 with `schema`, and a 404 that says nothing of who may call. */
function ok(schema: unknown) {
  return { responses: { ...answers(schema), "404": { description: "Not found" } } };
}

const ADMIN = `admin-${crypto.randomUUID()}`;
const FOR_ADMINS = new Set(["/toggle", "/audit", "/purge"]);

/** Accounts and their tokens, and the administrator's token `ADMIN`; what each call was answered. */
function standIn() {
  const accounts = new Map<string, { id: number; password: string }>();
  const tokens = new Map<string, string>();
  const counted = { refused: 0, byAdmin: 0, byUser: 0 };
  const signIn = (email: string) => {
    const issued = crypto.randomUUID();
    tokens.set(issued, email);
    return { access_token: issued, user: { id: accounts.get(email)!.id, email } };
  };
  const server = serveStandIn(async (req) => {
    const at = new URL(req.url).pathname;
    if (at === "/auth/register" || at === "/auth/login") {
      const { email, password } = await req.json();
      if (at === "/auth/register") accounts.set(email, { id: accounts.size + 1, password });
      if (accounts.get(email)?.password !== password) return new Response(null, { status: 401 });
      return Response.json(signIn(email), { status: at === "/auth/register" ? 201 : 200 });
    }
    const sent = /^Bearer (.+)$/.exec(req.headers.get("authorization") ?? "")?.[1] ?? "";
    if (FOR_ADMINS.has(at)) {
      if (sent !== ADMIN) return counted.refused++, new Response(null, { status: 403 });
      return counted.byAdmin++, Response.json([]);
    }
    if (!tokens.has(sent)) return counted.refused++, new Response(null, { status: 401 });
    counted.byUser++;
    return Response.json(at === "/auth/profile" ? { id: 1, email: tokens.get(sent) } : []);
  });
  return { server, counted };
}

Deno.test("convert openapi: an operation whose summary or description says only an administrator may call it is sent with ADMIN_TOKEN, and skipped without it", async () => {
  const { server, counted } = standIn();
  const { runs, summary } = await convertAndRunSuite(document, server, {
    runs: 2,
    env: [{}, { ADMIN_TOKEN: ADMIN }],
  });
  const said = /administrator[^\n]*ADMIN_TOKEN[^\n]*/.exec(summary)?.[0] ?? "";
  for (const op of ["GET /toggle", "GET /audit", "GET /purge"]) {
    assert.ok(said.includes(op), summary);
  }
  assert.match(said, /its summary "Toggle user active status \(Admin only\)"/);
  assert.doesNotMatch(said, /GET \/auth\/profile|GET \/admins\/count/, summary);
  for (const run of runs) assert.equal(run.code, 0, summary + run.stdout + run.stderr);
  // Run 1 skipped them (no ADMIN_TOKEN); run 2 sent each once with it; the others the account's.
  assert.deepEqual(counted, { refused: 0, byAdmin: 3, byUser: 4 });
  for (const run of runs) assert.ok(!(run.stdout + run.stderr).includes(ADMIN));
});

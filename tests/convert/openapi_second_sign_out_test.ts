/**
 * `convert openapi`: a flow with several operations that end the session
 * (a revoke of the session, a revoke of all of them, a sign-out) signs in
 * again before each after the first. Found on better-auth's own document
 * (docs/real-servers.md): `/revoke-session`, `/revoke-sessions` and
 * `/sign-out` ran last, one after another, on the one sign-in, and once
 * the first had ended the session the second answered 401. Each ender
 * must find a live session, whether the login hands a bearer token or a
 * session cookie, and every step before them still runs on the first one.
 *
 * The stand-in runs on 127.0.0.1: a sign-up, a sign-in answering a token
 * (and setting it as a cookie), notes that need the session, and three
 * enders that answer 401 without a live session.
 */
import assert from "node:assert/strict";
import { convertAndRunAsUser } from "../support/openapi_login_run.ts";
import { serveStandIn } from "../support/openapi_suite.ts";

const json = (schema: unknown) => ({ content: { "application/json": { schema } } });
const CREDENTIALS = {
  type: "object",
  required: ["email", "password"],
  properties: { email: { type: "string", format: "email" }, password: { type: "string" } },
};
const OK = { "200": json({ type: "object", properties: { ok: { type: "boolean" } } }) };
const TOKEN = { "200": json({ type: "object", properties: { token: { type: "string" } } }) };

/**
 * The document: with `bearer`, the protected operations declare it and the sign-in answers the
 * token, which the revoke of one session names in its body; without, the sign-in answers only a
 * session cookie, which every call sends, and the revoke of the session names none.
 */
function document(bearer: boolean) {
  const secured = (op: Record<string, unknown>) =>
    bearer ? { ...op, security: [{ bearer: [] }] } : op;
  const named = json({
    type: "object",
    required: ["token"],
    properties: { token: { type: "string" } },
  });
  return {
    openapi: "3.0.3",
    info: { title: "Notes", version: "0" },
    paths: {
      "/auth/sign-out": { post: secured({ responses: OK }) },
      "/auth/revoke-sessions": { post: secured({ responses: OK }) },
      "/auth/revoke-session": {
        post: secured({ ...bearer ? { requestBody: named } : {}, responses: OK }),
      },
      "/auth/sign-up": { post: { requestBody: json(CREDENTIALS), responses: OK } },
      "/auth/sign-in": { post: { requestBody: json(CREDENTIALS), responses: bearer ? TOKEN : OK } },
      "/notes": {
        get: secured({ responses: { "200": json({ type: "array", items: { type: "string" } }) } }),
      },
    },
    ...bearer
      ? { components: { securitySchemes: { bearer: { type: "http", scheme: "bearer" } } } }
      : {},
  };
}

const BEARER = document(true);
const COOKIE = document(false);

for (const [transport, doc] of [["bearer token", BEARER], ["session cookie", COOKIE]] as const) {
  Deno.test(`convert openapi: each operation ending the session after the first signs in again (${transport})`, async () => {
    const sessions = new Set<string>();
    const seen = { refused: [] as string[], ended: [] as string[] };
    const server = serveStandIn(async (req) => {
      const { pathname } = new URL(req.url);
      const bearer = /^Bearer (.+)$/.exec(req.headers.get("authorization") ?? "")?.[1];
      const cookie = /sid=([^;]+)/.exec(req.headers.get("cookie") ?? "")?.[1];
      const sid = bearer ?? cookie ?? "";
      if (pathname === "/auth/sign-up") return Response.json({ ok: true });
      if (pathname === "/auth/sign-in") {
        const token = crypto.randomUUID();
        sessions.add(token);
        const headers = { "set-cookie": `sid=${token}; Path=/` };
        return Response.json({ token }, { headers });
      }
      if (!sessions.has(sid)) {
        seen.refused.push(pathname);
        return Response.json({ code: "UNAUTHORIZED" }, { status: 401 });
      }
      if (pathname === "/notes") return Response.json([]);
      seen.ended.push(pathname);
      if (pathname === "/auth/revoke-session") {
        const { token } = bearer ? await req.json() : { token: sid };
        if (!sessions.delete(token)) return Response.json({ code: "NOT_FOUND" }, { status: 404 });
      } else if (pathname === "/auth/revoke-sessions") sessions.clear();
      else sessions.delete(sid);
      return Response.json({ ok: true });
    });
    const { run, steps, flows } = await convertAndRunAsUser(doc, server, (base) => ({
      BASE_URL: base,
    }));
    const text = [...flows.values()].join("\n");
    assert.equal(run.code, 0, run.stdout + run.stderr + text);
    assert.ok(steps.every((s) => s.status === "passed"), JSON.stringify(steps) + text);
    assert.deepEqual(seen.refused, []);
    assert.equal(seen.ended.length, 3, seen.ended.join());
  });
}

/** A logout of every session (`/auth/logout-all`) is one too, beside the plain logout. */
const LOGOUT_ALL = {
  openapi: "3.0.3",
  info: { title: "Notes", version: "0" },
  paths: {
    "/auth/logout-all": { post: { security: [{ bearer: [] }], responses: OK } },
    "/auth/logout": { post: { security: [{ bearer: [] }], responses: OK } },
    "/auth/sign-up": { post: { requestBody: json(CREDENTIALS), responses: OK } },
    "/auth/login": { post: { requestBody: json(CREDENTIALS), responses: TOKEN } },
    "/notes": {
      get: {
        security: [{ bearer: [] }],
        responses: { "200": json({ type: "array", items: { type: "string" } }) },
      },
    },
  },
  components: { securitySchemes: { bearer: { type: "http", scheme: "bearer" } } },
};

Deno.test("convert openapi: a logout of every session runs last, and the logout after it signs in again", async () => {
  const sessions = new Set<string>();
  const seen = { refused: [] as string[], ended: [] as string[] };
  const server = serveStandIn((req) => {
    const { pathname } = new URL(req.url);
    const sid = /^Bearer (.+)$/.exec(req.headers.get("authorization") ?? "")?.[1] ?? "";
    if (pathname === "/auth/sign-up") return Response.json({ ok: true });
    if (pathname === "/auth/login") {
      const token = crypto.randomUUID();
      sessions.add(token);
      return Response.json({ token });
    }
    if (!sessions.has(sid)) {
      seen.refused.push(pathname);
      return Response.json({ code: "UNAUTHORIZED" }, { status: 401 });
    }
    if (pathname === "/notes") return Response.json([]);
    seen.ended.push(pathname);
    if (pathname === "/auth/logout-all") sessions.clear();
    else sessions.delete(sid);
    return Response.json({ ok: true });
  });
  const { run, steps, flows } = await convertAndRunAsUser(LOGOUT_ALL, server, (base) => ({
    BASE_URL: base,
  }));
  const text = [...flows.values()].join("\n");
  assert.equal(run.code, 0, run.stdout + run.stderr + text);
  assert.ok(steps.every((s) => s.status === "passed"), JSON.stringify(steps) + text);
  assert.deepEqual(seen.refused, []);
  assert.equal(seen.ended.length, 2, seen.ended.join());
});

/**
 * `convert openapi`: an operation that signs out (`/auth/sign-out`,
 * `/logout`, an operationId `logOut`) ends the session every later step of
 * its flow signs in with, so it runs last. Found on franco2ke/fastify-todo-ts
 * (better-auth; see docs/real-servers.md): once its POSTs carried the
 * browser's `Origin`, `POST /api/auth/sign-out` succeeded in the middle of
 * its flow and the five steps after it answered 401. A sign-out nothing
 * signs in before is not moved.
 *
 * The stand-in runs on 127.0.0.1: a session login, notes that need the
 * session, and a sign-out that forgets it.
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

/** The sign-out comes first in the document, and first in the usual order (an action). */
const DOC = {
  openapi: "3.0.3",
  info: { title: "Notes", version: "0" },
  paths: {
    "/auth/sign-out": { post: { responses: OK } },
    "/auth/sign-up": { post: { requestBody: json(CREDENTIALS), responses: OK } },
    "/auth/sign-in": { post: { requestBody: json(CREDENTIALS), responses: OK } },
    "/notes": {
      get: { responses: { "200": json({ type: "array", items: { type: "string" } }) } },
      post: {
        requestBody: json({ type: "object", properties: { text: { type: "string" } } }),
        responses: OK,
      },
    },
    "/notes/clear": { post: { responses: OK } },
  },
};

Deno.test("convert openapi: a sign-out runs last in its flow, after every step its session serves", async () => {
  const sessions = new Set<string>();
  const seen = { refused: 0, signedOut: 0 };
  const server = serveStandIn((req) => {
    const { pathname } = new URL(req.url);
    const sid = /sid=([^;]+)/.exec(req.headers.get("cookie") ?? "")?.[1] ?? "";
    if (pathname === "/auth/sign-up") return Response.json({ ok: true });
    if (pathname === "/auth/sign-in") {
      const id = crypto.randomUUID();
      sessions.add(id);
      return Response.json({ ok: true }, { headers: { "set-cookie": `sid=${id}; Path=/` } });
    }
    if (!sessions.delete(sid)) {
      seen.refused++;
      return Response.json({ code: "UNAUTHORIZED" }, { status: 401 });
    }
    if (pathname === "/auth/sign-out") seen.signedOut++;
    else sessions.add(sid);
    return Response.json(req.method === "GET" ? [] : { ok: true });
  });
  const { run, steps, flows } = await convertAndRunAsUser(DOC, server, (base) => ({
    BASE_URL: base,
  }));
  const text = [...flows.values()].join("\n");
  assert.equal(run.code, 0, run.stdout + run.stderr + text);
  assert.ok(steps.every((s) => s.status === "passed"), JSON.stringify(steps));
  assert.equal(seen.refused, 0);
  assert.ok(seen.signedOut >= 1);
});

/**
 * `convert openapi` on an API whose credential is a cookie sends the
 * `Origin` a browser sends on every unsafe request: the origin of
 * `BASE_URL` (`${origin:ENV.BASE_URL}`), never a literal host. Found on
 * franco2ke/fastify-todo-ts (better-auth behind `@fastify/swagger`; measured
 * by hand, see docs/real-servers.md): signed in by its session cookie, 7 of
 * its POSTs answered 403 `MISSING_OR_NULL_ORIGIN`, better-auth's CSRF check,
 * which every browser passes. The evidence is the document's: a session
 * login (no security declared, a login answering no token), or a scheme
 * whose credential is a cookie (`apiKey` `in: cookie`). A bearer API sends
 * no `Origin`. The API lives under `/app` (its server's path), which the
 * URLs carry and an origin never does (`tests/expr/origin_test.ts` reads one
 * from a `BASE_URL` holding a path).
 *
 * The stand-ins run on 127.0.0.1 and refuse, as better-auth does, a POST,
 * PUT, PATCH or DELETE carrying a cookie without an `Origin` of their own.
 */
import assert from "node:assert/strict";
import { convertAndRunAsUser } from "../support/openapi_login_run.ts";
import { askedVariables } from "../real/measure.ts";
import { serveStandIn } from "../support/openapi_suite.ts";

const json = (schema: unknown) => ({ content: { "application/json": { schema } } });
const CREDENTIALS = {
  type: "object",
  required: ["email", "password"],
  properties: { email: { type: "string", format: "email" }, password: { type: "string" } },
};
const NOTE = { type: "object", properties: { id: { type: "integer" }, text: { type: "string" } } };
const notes = (security?: unknown) => ({
  "/api/notes": {
    get: { responses: { "200": json({ type: "array", items: NOTE }) } },
    post: {
      ...(security ? { security } : {}),
      requestBody: { required: true, ...json({ type: "object", properties: { text: NOTE } }) },
      responses: { "200": json(NOTE) },
    },
  },
  "/api/notes/{id}": {
    delete: {
      parameters: [{ name: "id", in: "path", required: true, schema: { type: "integer" } }],
      responses: { "200": json({ type: "object", properties: { ok: { type: "boolean" } } }) },
    },
  },
});

/** better-auth's shape: a sign-up and a sign-in answering no token, no security declared. */
const SESSION_DOC = {
  openapi: "3.0.3",
  info: { title: "Session", version: "0" },
  servers: [{ url: "/app" }],
  paths: {
    "/api/auth/sign-up/email": {
      post: { requestBody: json(CREDENTIALS), responses: { "200": json({ type: "object" }) } },
    },
    "/api/auth/sign-in/email": {
      post: {
        requestBody: json(CREDENTIALS),
        responses: {
          "200": json({ type: "object", properties: { redirect: { type: "boolean" } } }),
        },
      },
    },
    ...notes(),
  },
};

/** A cookie scheme: the session id the user pastes, as `sid`. */
const COOKIE_DOC = {
  openapi: "3.0.3",
  info: { title: "Cookie", version: "0" },
  servers: [{ url: "/app" }],
  components: { securitySchemes: { sid: { type: "apiKey", in: "cookie", name: "sid" } } },
  security: [{ sid: [] }],
  paths: notes(),
};

/** The same API by a bearer token: no cookie, so no `Origin`. */
const BEARER_DOC = {
  ...COOKIE_DOC,
  components: { securitySchemes: { jwt: { type: "http", scheme: "bearer" } } },
  security: [{ jwt: [] }],
};

/** Notes under `/app`, by a session (`sid` cookie) or a bearer token; `seen` counts what came. */
function standIn() {
  const seen = { refused: 0, unsafeWithOrigin: 0, safeWithOrigin: 0 };
  const list: { id: number; text: string }[] = [];
  let own = "";
  const server = serveStandIn(async (req) => {
    const path = new URL(req.url).pathname.replace(/^\/app/, "");
    const origin = req.headers.get("origin");
    const unsafe = req.method !== "GET" && req.method !== "HEAD";
    if (origin !== null) seen[unsafe ? "unsafeWithOrigin" : "safeWithOrigin"]++;
    if (unsafe && req.headers.has("cookie") && origin !== own) {
      seen.refused++;
      const code = origin === null ? "MISSING_OR_NULL_ORIGIN" : "INVALID_ORIGIN";
      return Response.json({ code }, { status: 403 });
    }
    const body = unsafe ? await req.json().catch(() => ({})) : {};
    if (path.startsWith("/api/auth/")) {
      return Response.json({ redirect: false }, { headers: { "set-cookie": "sid=s-1; Path=/" } });
    }
    const signedIn = /sid=s-1/.test(req.headers.get("cookie") ?? "") ||
      req.headers.get("authorization") === "Bearer t-1";
    if (!signedIn) return Response.json({ code: "UNAUTHORIZED" }, { status: 401 });
    if (req.method === "GET") return Response.json(list);
    if (req.method === "POST") {
      list.push({ id: list.length + 1, text: String(body.text ?? "") });
      return Response.json(list.at(-1));
    }
    return Response.json({ ok: true });
  });
  own = server.base;
  return { server, seen };
}

/** Converts `doc`, runs it as its summary says (`secret`: the cookie or token the stand-in knows). */
async function runOn(doc: unknown, secret?: [string, string]) {
  const { server, seen } = standIn();
  const got = await convertAndRunAsUser(doc, server, (base) => ({
    BASE_URL: base,
    ...(secret ? { [secret[0]]: secret[1] } : {}),
  }));
  const asked = [...askedVariables(got.summary).keys()];
  assert.deepEqual(asked, ["BASE_URL", ...(secret ? [secret[0]] : [])], got.summary);
  assert.ok(!/127\.0\.0\.1/.test([...got.flows.values()].join("\n")), "no literal origin");
  return { ...got, seen };
}

Deno.test("convert openapi: a session login's flows send the origin of BASE_URL on unsafe requests, as a browser does", async () => {
  const { run, steps, seen, flows } = await runOn(SESSION_DOC);
  assert.match([...flows.values()].join("\n"), /origin: \$\{origin:ENV\.BASE_URL\}/i);
  assert.equal(run.code, 0, run.stdout + run.stderr);
  assert.ok(steps.length >= 5 && steps.every((s) => s.status === "passed"), JSON.stringify(steps));
  assert.equal(seen.refused, 0);
  assert.ok(seen.unsafeWithOrigin >= 3);
  assert.equal(seen.safeWithOrigin, 0, "a GET carries no Origin, as a browser's same-origin GET");
});

Deno.test("convert openapi: a cookie scheme's unsafe requests send the origin of BASE_URL", async () => {
  const { run, steps, seen } = await runOn(COOKIE_DOC, ["API_KEY", "s-1"]);
  assert.equal(run.code, 0, run.stdout + run.stderr);
  assert.ok(steps.length >= 3 && steps.every((s) => s.status === "passed"), JSON.stringify(steps));
  assert.equal(seen.refused, 0);
  assert.ok(seen.unsafeWithOrigin >= 2);
});

Deno.test("convert openapi: a bearer API sends no Origin", async () => {
  const { run, seen, flows } = await runOn(BEARER_DOC, ["API_TOKEN", "t-1"]);
  assert.equal(run.code, 0, run.stdout + run.stderr);
  assert.ok(!/origin:/i.test([...flows.values()].join("\n")));
  assert.equal(seen.unsafeWithOrigin + seen.safeWithOrigin, 0);
});

/**
 * `convert openapi` on an API signed in by a session cookie echoes the
 * script-readable `XSRF-TOKEN` cookie its sign-in sets back as the
 * `X-XSRF-TOKEN` header on every unsafe request, as a browser client does
 * (Angular's `HttpClient` and axios read that cookie and send that header on
 * their own). Found on a FoalTS 2 API (`@foal/swagger`, its sessions' CSRF
 * check on; measured by hand, see docs/real-servers.md): signed in once by
 * the setup flow, every POST, PUT, PATCH and DELETE answered 403 "CSRF token
 * missing or incorrect", which a browser's client passes. The evidence is the
 * server's own answer at run time: the header carries what the sign-in's
 * answer set, and a server that sets no such cookie gets no header (the
 * capture is empty and the header left out when empty). A flow that signs
 * in on its own (the one that signs out) echoes what its own login's answer
 * set, the same way.
 *
 * The stand-in runs on 127.0.0.1: its login sets an HttpOnly session cookie
 * and a readable `XSRF-TOKEN`, and it refuses an unsafe request carrying the
 * session without the header equal to that token.
 */
import assert from "node:assert/strict";
import { convertAndRunAsUser } from "../support/openapi_login_run.ts";
import { serveStandIn } from "../support/openapi_suite.ts";

const json = (schema: unknown) => ({ content: { "application/json": { schema } } });
const CREDENTIALS = {
  type: "object",
  required: ["email", "password"],
  properties: { email: { type: "string", format: "email" }, password: { type: "string" } },
  additionalProperties: false,
};
const ITEM = { type: "object", required: ["text"], properties: { text: { type: "string" } } };
const ID = [{ name: "id", in: "path", required: true, schema: { type: "number" } }];
const items = (tag: string) => ({
  [`/${tag}`]: {
    get: { tags: [tag], responses: { "200": { description: "The list." } } },
    post: {
      tags: [tag],
      requestBody: { required: true, ...json(ITEM) },
      responses: { "201": { description: "Created." }, "403": { description: "Refused." } },
    },
  },
  [`/${tag}/{id}`]: {
    patch: {
      tags: [tag],
      parameters: ID,
      requestBody: { required: true, ...json(ITEM) },
      responses: { "200": { description: "Changed." } },
    },
    delete: { tags: [tag], parameters: ID, responses: { "204": { description: "Gone." } } },
  },
});

/** A FoalTS-like document: a cookie scheme, a login answering no token, no security declared. */
function doc(scheme = "sessionID") {
  return {
    openapi: "3.0.0",
    info: { title: "Cookie session", version: "1" },
    servers: [{ url: "/api" }],
    components: { securitySchemes: { cookieAuth: { type: "apiKey", in: "cookie", name: scheme } } },
    paths: {
      "/auth/login": {
        post: {
          tags: ["auth"],
          requestBody: { required: true, ...json(CREDENTIALS) },
          responses: { "401": { description: "Bad credentials." } },
        },
      },
      "/auth/logout": { post: { tags: ["auth"], responses: { "204": { description: "Out." } } } },
      ...items("notes"),
      ...items("tags"),
    },
  };
}

/** `xsrf`: whether the login sets the readable token cookie and unsafe requests must echo it. */
function standIn(xsrf: boolean) {
  const seen = { refused: 0, echoed: 0 };
  const made: number[] = [];
  const server = serveStandIn(async (req) => {
    const path = new URL(req.url).pathname.replace(/^\/api/, "");
    const unsafe = req.method !== "GET" && req.method !== "HEAD";
    const body = unsafe ? await req.json().catch(() => ({})) : {};
    if (path === "/auth/login") {
      if (!body.email || !body.password) return new Response(null, { status: 401 });
      const headers = new Headers([["set-cookie", "sessionID=s-1; Path=/; HttpOnly"]]);
      if (xsrf) headers.append("set-cookie", "XSRF-TOKEN=x-7; Path=/; SameSite=Lax");
      return Response.json({ id: 1 }, { headers });
    }
    if (!/sessionID=s-1/.test(req.headers.get("cookie") ?? "")) {
      return new Response(null, { status: 401 });
    }
    const echoed = req.headers.get("x-xsrf-token");
    if (echoed !== null) seen.echoed++;
    if (unsafe && xsrf && echoed !== "x-7") {
      seen.refused++;
      return new Response("CSRF token missing or incorrect.", { status: 403 });
    }
    if (path === "/auth/logout") return new Response(null, { status: 204 });
    if (req.method === "GET") return Response.json(made.map((id) => ({ id, text: "t" })));
    if (req.method === "POST") {
      made.push(made.length + 1);
      return Response.json({ id: made.length, text: body.text }, { status: 201 });
    }
    if (req.method === "DELETE") return new Response(null, { status: 204 });
    return Response.json({ id: 1, text: body.text });
  });
  return { server, seen };
}

async function runOn(xsrf: boolean) {
  const { server, seen } = standIn(xsrf);
  const got = await convertAndRunAsUser(doc(), server, (base) => ({
    BASE_URL: base,
    LOGIN_EMAIL: "me@example.com",
    LOGIN_PASSWORD: "pw-1",
  }));
  return { ...got, seen };
}

Deno.test("convert openapi: a cookie session's unsafe requests echo the XSRF-TOKEN cookie its sign-in set", async () => {
  const { run, steps, seen, flows } = await runOn(true);
  const text = [...flows.values()].join("\n");
  assert.match(text, /X-XSRF-TOKEN: \$\{setup\.\w+\}/, text);
  assert.match(text, /X-XSRF-TOKEN: \$\{steps\.\w+\.capture\.xsrf\}/, text);
  assert.ok(!/x-7/.test(text), "no literal token");
  assert.equal(run.code, 0, run.stdout + run.stderr);
  assert.ok(steps.length >= 10 && steps.every((s) => s.status === "passed"), JSON.stringify(steps));
  assert.equal(seen.refused, 0);
  assert.ok(seen.echoed >= 7, JSON.stringify(seen));
});

Deno.test("convert openapi: a server that sets no XSRF-TOKEN cookie gets no X-XSRF-TOKEN header", async () => {
  const { run, steps, seen } = await runOn(false);
  assert.equal(run.code, 0, run.stdout + run.stderr);
  assert.ok(steps.length >= 10 && steps.every((s) => s.status === "passed"), JSON.stringify(steps));
  assert.equal(seen.echoed, 0);
});

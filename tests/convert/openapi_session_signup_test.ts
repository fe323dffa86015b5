/**
 * `convert openapi` on a document that declares a cookie scheme, requires
 * it nowhere, and has a session login (answering no token) beside an open
 * sign-up taking the login's fields signs up its own account and asks for
 * `BASE_URL` alone. Found on a FoalTS 2.6 API (`@foal/swagger`; measured by
 * hand, see docs/real-servers.md): the document read as requiring its one
 * declared scheme everywhere (`declared_schemes.ts`) put that requirement
 * on the sign-up too, so the sign-up looked signed in already, no operation
 * was read as registering the account, and the summary asked for
 * `LOGIN_EMAIL` and `LOGIN_PASSWORD` of an account made by hand. A token
 * login's sign-up was already exempted; a session login's now is, by the
 * same evidence: it takes the login's credential fields and the document
 * as written requires nothing of it.
 *
 * The stand-in runs on 127.0.0.1: its login knows only the accounts its
 * sign-up made and sets a session cookie; its notes need that cookie. Its
 * sign-up signs the account in too, and a write carrying a session must echo
 * that session's `XSRF-TOKEN` (`openapi_xsrf_cookie_test.ts`): the login
 * after the sign-up echoes the sign-up's.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";
import { askedVariables } from "../real/measure.ts";

const json = (schema: unknown) => ({ content: { "application/json": { schema } } });
const REFUSED = {
  "400": { description: "Bad request." },
  "401": { description: "Unauthenticated." },
  "403": { description: "Refused." },
};
const object = (properties: Record<string, unknown>) => ({
  type: "object",
  properties,
  required: Object.keys(properties),
  additionalProperties: false,
});
const TEXT = { type: "string" };
const ID = [{ name: "id", in: "path", required: true, schema: { type: "number" } }];

const DOC = {
  openapi: "3.0.0",
  info: { title: "Session sign-up", version: "1" },
  servers: [{ url: "/api" }],
  components: { securitySchemes: { cookieAuth: { type: "apiKey", in: "cookie", name: "sid" } } },
  paths: {
    "/auth/signup": {
      post: {
        tags: ["auth"],
        requestBody: {
          required: true,
          ...json(object({ email: TEXT, password: TEXT, firstName: TEXT, lastName: TEXT })),
        },
        responses: REFUSED,
      },
    },
    "/auth/login": {
      post: {
        tags: ["auth"],
        requestBody: { required: true, ...json(object({ email: TEXT, password: TEXT })) },
        responses: REFUSED,
      },
    },
    "/notes": {
      get: { tags: ["notes"], responses: { "200": { description: "The list." }, ...REFUSED } },
      post: {
        tags: ["notes"],
        requestBody: { required: true, ...json(object({ text: TEXT })) },
        responses: { "201": { description: "Made." }, ...REFUSED },
      },
    },
    "/notes/{id}": {
      delete: {
        tags: ["notes"],
        parameters: ID,
        responses: { "204": { description: "Gone." }, ...REFUSED },
      },
    },
    "/tags": {
      get: { tags: ["tags"], responses: { "200": { description: "The list." }, ...REFUSED } },
    },
  },
};

function standIn() {
  const accounts = new Map<string, string>();
  const seen = { signups: 0, refused: 0 };
  let notes = 0;
  const server = serveStandIn(async (req) => {
    const path = new URL(req.url).pathname.replace(/^\/api/, "");
    const body = req.method === "POST" ? await req.json().catch(() => ({})) : {};
    // A request carrying a session writes only with its token echoed (FoalTS's CSRF check).
    const sid = /sid=(s-\d)/.exec(req.headers.get("cookie") ?? "")?.[1];
    const token = req.headers.get("x-xsrf-token");
    if (sid && req.method !== "GET" && token !== sid.replace("s-", "x-")) {
      seen.refused++;
      return new Response("CSRF token missing or incorrect.", { status: 403 });
    }
    if (path === "/auth/signup") {
      if (accounts.has(body.email)) return new Response(null, { status: 400 });
      accounts.set(body.email, body.password);
      seen.signups++;
      // The sign-up signs the new account in, as FoalTS's does.
      const headers = new Headers([["set-cookie", "sid=s-0; Path=/; HttpOnly"]]);
      headers.append("set-cookie", "XSRF-TOKEN=x-0; Path=/");
      return Response.json({ id: accounts.size }, { headers });
    }
    if (path === "/auth/login") {
      if (!body.email || accounts.get(body.email) !== body.password) {
        seen.refused++;
        return new Response(null, { status: 401 });
      }
      const headers = new Headers([["set-cookie", "sid=s-1; Path=/; HttpOnly"]]);
      headers.append("set-cookie", "XSRF-TOKEN=x-1; Path=/");
      return Response.json({ id: 1 }, { headers });
    }
    if (sid !== "s-1") {
      seen.refused++;
      return new Response(null, { status: 401 });
    }
    if (req.method === "POST") {
      return Response.json({ id: ++notes, text: body.text }, { status: 201 });
    }
    if (req.method === "DELETE") return new Response(null, { status: 204 });
    return Response.json([]);
  });
  return { server, seen };
}

Deno.test("convert openapi: a session login's open sign-up beside a declared, unrequired cookie scheme makes the run's account", async () => {
  const { server, seen } = standIn();
  const { summary, runs } = await convertAndRunSuite(DOC, server, { runs: 2 });
  assert.deepEqual([...askedVariables(summary).keys()], ["BASE_URL"], summary);
  for (const run of runs) assert.equal(run.code, 0, run.stdout + run.stderr);
  assert.equal(seen.refused, 0);
  assert.ok(seen.signups >= 2, JSON.stringify(seen));
});

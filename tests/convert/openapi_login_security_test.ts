/**
 * `convert openapi` on a document with a login whose top-level `security`
 * is missing: Directus 10's own document (`/server/specs/oas`,
 * tests/real/directus_openapi_test.ts) declares its `Auth` scheme and a
 * login answering the token, requires `Auth` on its presets only, and
 * leaves every other operation bare, its writes too (`POST /roles`,
 * `DELETE /users`); the server refuses them all 403 without the token, and
 * the suite sent it to the presets alone. A document that leaves writes
 * bare besides its login and sign-up has lost its top-level requirement:
 * its bare operations now send the login's token (the scheme the document
 * requires elsewhere), the login and sign-up none. A document whose only
 * bare writes are its login and sign-up (RealWorld's: every other write
 * requires the token) is read as it says: its bare reads are public and
 * send no login.
 *
 * The stand-in runs on 127.0.0.1 and refuses 403 without the token.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const json = (schema: unknown) => ({ content: { "application/json": { schema } } });
const ok = { "200": { description: "OK", ...json({ type: "object" }) } };
const secured = [{ Auth: [] }];

/** A login and its sign-up (no credentials), one required read, and `more` paths. */
function document(more: Record<string, unknown>) {
  const credentials = json({
    type: "object",
    required: ["email", "password"],
    properties: { email: { type: "string" }, password: { type: "string", format: "password" } },
  });
  const token = json({
    type: "object",
    properties: { data: { type: "object", properties: { access_token: { type: "string" } } } },
  });
  return {
    openapi: "3.0.1",
    info: { title: "CMS", version: "1" },
    components: {
      securitySchemes: { Auth: { type: "apiKey", in: "header", name: "Authorization" } },
    },
    paths: {
      "/signup": { post: { tags: ["Auth"], requestBody: credentials, responses: ok } },
      "/auth/login": {
        post: {
          tags: ["Auth"],
          requestBody: credentials,
          responses: { "200": { description: "Signed in", ...token } },
        },
      },
      "/presets": { get: { tags: ["Presets"], security: secured, responses: ok } },
      ...more,
    },
  };
}

/** Accepts any sign-up and its login; every path but those and `publicPaths` needs the token. */
function standIn(publicPaths: string[], seen: Map<string, string | null>) {
  const accounts = new Map<string, string>();
  return serveStandIn(async (req) => {
    const { pathname } = new URL(req.url);
    const auth = req.headers.get("authorization");
    seen.set(`${req.method} ${pathname}`, auth);
    if (req.method === "POST" && (pathname === "/signup" || pathname === "/auth/login")) {
      const body = await req.json();
      if (pathname === "/signup") accounts.set(body.email, body.password);
      else if (accounts.get(body.email) !== body.password) {
        return new Response(null, { status: 401 });
      }
      return Response.json({ data: { access_token: "tok-1" } });
    }
    if (!publicPaths.includes(pathname) && auth !== "Bearer tok-1") {
      return Response.json({ errors: [{ message: "Forbidden" }] }, { status: 403 });
    }
    if (req.method === "POST") return Response.json({ data: { id: 7 } });
    return Response.json({ data: [] });
  });
}

Deno.test("convert openapi: a document with a login and bare writes sends the login's token to its bare operations", async () => {
  const seen = new Map<string, string | null>();
  const { runs, flows } = await convertAndRunSuite(
    document({
      "/roles": {
        get: { tags: ["Roles"], responses: ok },
        post: {
          tags: ["Roles"],
          requestBody: json({ type: "object", properties: { name: { type: "string" } } }),
          responses: ok,
        },
      },
      "/server/ping": { get: { tags: ["Server"], security: [], responses: ok } },
    }),
    standIn(["/server/ping"], seen),
  );
  assert.equal(runs[0].code, 0, runs[0].stdout + runs[0].stderr);
  assert.equal(seen.get("GET /roles"), "Bearer tok-1");
  assert.equal(seen.get("POST /roles"), "Bearer tok-1");
  assert.equal(seen.get("GET /presets"), "Bearer tok-1");
  // An operation saying `security: []` still sends none; the login sends none.
  assert.equal(seen.get("GET /server/ping"), null);
  assert.equal(seen.get("POST /auth/login"), null);
  assert.doesNotMatch(flows.get("server.yaml") ?? "", /login/);
});

Deno.test("convert openapi: a document whose only bare writes are its login and sign-up keeps its bare reads public", async () => {
  const seen = new Map<string, string | null>();
  const { runs, flows } = await convertAndRunSuite(
    document({
      "/tags": { get: { tags: ["Tags"], responses: ok } },
      "/articles": {
        post: {
          tags: ["Articles"],
          security: secured,
          requestBody: json({ type: "object", properties: { title: { type: "string" } } }),
          responses: ok,
        },
      },
    }),
    standIn(["/tags"], seen),
  );
  assert.equal(runs[0].code, 0, runs[0].stdout + runs[0].stderr);
  assert.equal(seen.get("GET /tags"), null);
  assert.equal(seen.get("POST /articles"), "Bearer tok-1");
  // Its flow signs up and logs in nowhere: a read the document leaves bare is public.
  assert.doesNotMatch(flows.get("tags.yaml") ?? "", /login|signup/);
});

/**
 * `convert openapi` on a document whose login shows its token only in a
 * documented example: the answer's schema says `data: {type: array, items:
 * {type: object}}` and its `example` is `[{username, role_id, token}]`, as
 * a hand-written Express API bundled with `swagger-cli` documents its
 * `POST /auth/signin`. The converter looked for a token in the schema alone,
 * found none, and asked for an `API_TOKEN` (every secured step refused
 * without one). A documented example of a success holding a member named
 * like a token now makes the operation the suite's login, its token read by
 * name from the body (the real server answered `data` as an object, not the
 * documented list, so no documented path is trusted). Each place a document
 * puts an example is covered: the member's `example`, the schema's, the
 * media type's `example` and a named `examples` entry. Its second sign-up
 * (`POST /auth/admin-signup`, the same credentials, under the root's
 * requirement) was then sent the login's token, which a later step captured:
 * the flow did not load and nothing was sent; a second sign-up, as the first,
 * needs no token. The stand-in on 127.0.0.1 takes only the tokens it issued.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const credentials = {
  type: "object",
  properties: {
    username: { type: "string", example: "user" },
    password: { type: "string", example: "password" },
  },
};

const loose = {
  type: "object",
  properties: {
    success: { type: "boolean", example: true },
    data: { type: "array", items: { type: "object" } },
    message: { type: "string", example: "Login Success" },
  },
};
const shown = [{ username: "user", role_id: "user", token: "token" }];
const whole = { success: true, data: shown, message: "Login Success" };

/** Where the example is written: each way a document shows an answer's example. */
const PLACES: Record<string, Record<string, unknown>> = {
  "the member's example": {
    schema: {
      ...loose,
      properties: { ...loose.properties, data: { ...loose.properties.data, example: shown } },
    },
  },
  "the schema's example": { schema: { ...loose, example: whole } },
  "the media type's example": { schema: loose, example: whole },
  "a named examples entry": { schema: loose, examples: { signedIn: { value: whole } } },
};

function document(media: Record<string, unknown>): Record<string, unknown> {
  const json = (m: unknown) => ({ content: { "application/json": m } });
  return {
    openapi: "3.0.0",
    info: { title: "menus", version: "0.1" },
    components: { securitySchemes: { bearerAuth: { type: "http", scheme: "bearer" } } },
    security: [{ bearerAuth: [] }],
    paths: {
      "/auth/signup": {
        post: {
          tags: ["Auth"],
          summary: "Create a new user account",
          requestBody: { required: true, ...json({ schema: credentials }) },
          responses: { 200: { description: "registered", ...json({ schema: loose }) } },
        },
      },
      // A second sign-up taking the same credentials (second_signup.ts), under the root's
      // requirement too: sent the login's token, it read a later step and the flow did not load.
      "/auth/admin-signup": {
        post: {
          tags: ["Auth"],
          summary: "Create a new admin account",
          requestBody: { required: true, ...json({ schema: credentials }) },
          responses: { 200: { description: "registered", ...json({ schema: loose }) } },
        },
      },
      "/auth/signin": {
        post: {
          tags: ["Auth"],
          summary: "Login to user account",
          requestBody: { required: true, ...json({ schema: credentials }) },
          responses: { 200: { description: "signed in", ...json(media) } },
        },
      },
      "/menu/mine": {
        get: {
          tags: ["Menu"],
          responses: { 200: { description: "the menu", ...json({ schema: loose }) } },
        },
      },
    },
  };
}

/** The stand-in: accounts by name, the tokens it issued, and what it was sent. */
function standIn(seen: string[]) {
  const accounts = new Map<string, string>();
  const issued = new Set<string>();
  return serveStandIn(async (req) => {
    const path = new URL(req.url).pathname;
    seen.push(`${req.method} ${path}`);
    const fail = (message: string) => Response.json({ success: false, message }, { status: 500 });
    if (path === "/auth/signup" || path === "/auth/admin-signup") {
      const { username, password } = await req.json();
      if (accounts.has(username)) return fail("Username is already registered");
      accounts.set(username, password);
      return Response.json({ success: true, data: [], message: `${username} registered` });
    }
    if (path === "/auth/signin") {
      const { username, password } = await req.json();
      if (accounts.get(username) !== password) return fail("Username or Password is invalid!");
      const token = `tok${issued.size}`;
      issued.add(token);
      return Response.json({ success: true, data: [{ username, role_id: "user", token }] });
    }
    const token = (req.headers.get("authorization") ?? "").replace(/^Bearer /, "");
    return issued.has(token)
      ? Response.json({ success: true, data: [], message: "Hello World" })
      : fail("Invalid token");
  });
}

for (const [place, media] of Object.entries(PLACES)) {
  Deno.test(`convert openapi: a login whose token only ${place} shows signs the suite in, with BASE_URL alone`, async () => {
    const seen: string[] = [];
    const { summary, runs: [run] } = await convertAndRunSuite(document(media), standIn(seen));
    assert.doesNotMatch(summary, /API_TOKEN/, summary);
    assert.equal(run.code, 0, run.stdout + run.stderr + seen.join("\n"));
    assert.ok(seen.includes("GET /menu/mine"), seen.join("\n"));
  });
}

Deno.test("convert openapi: an example without a token's member makes no login", async () => {
  // A message that merely says "token" is no member holding one: the variable is still asked.
  const media = { schema: loose, example: { success: true, data: [], message: "token sent" } };
  const { summary } = await convertAndRunSuite(document(media), standIn([]), { runs: 0 });
  assert.match(summary, /API_TOKEN/, summary);
});

/**
 * `convert openapi`: an apiKey header the document's login says it hands
 * out. Found on an Express API measured by hand (a restaurant's orders):
 * its document declares `apiKey: {type: apiKey, in: header, name:
 * auth-token}`, requires it nowhere, and its `POST /users/login` says
 * "This endpoint responses a token. This token must be used in the Headers
 * with auth-token key"; the answer's schema shows nothing. The scheme was
 * read as a key the user is given (its description is empty), so the
 * summary asked for `API_KEY` and nothing signed in. The login's own words
 * name the header and a token: the login gives that key (read from its
 * answer), the login and its sign-up need none, every other operation
 * sends it. A POST that names the header but takes no password gives none.
 *
 * The stand-in server below answers as that API does, on 127.0.0.1.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const json = (schema: unknown) => ({ "application/json": { schema } });
const text = { type: "string" };
const user = {
  type: "object",
  required: ["email", "username", "password"],
  properties: { email: text, username: text, password: text },
};
const ok = { "200": { description: "OK" } };

/** A sign-up, a login that names the header it hands out, and products behind the key. */
function document(): Record<string, unknown> {
  return {
    openapi: "3.0.1",
    info: { title: "Restaurant", version: "1" },
    paths: {
      "/users": {
        post: {
          tags: ["users"],
          summary: "Create a new user",
          requestBody: { required: true, content: json(user) },
          responses: ok,
        },
      },
      "/users/login": {
        post: {
          tags: ["users"],
          summary: "Login user",
          description: "This endpoint responses a token. This token must be used in the " +
            "Headers with auth-token key for others endpoints (products and orders).",
          requestBody: { required: true, content: json(user) },
          responses: { ...ok, "401": { description: "Bad credentials." } },
        },
      },
      "/products": {
        get: { tags: ["products"], responses: ok },
        post: {
          tags: ["products"],
          description: "Send the auth-token header of an administrator.",
          requestBody: { content: json({ type: "object", properties: { name: text } }) },
          responses: { "201": { description: "Created" } },
        },
      },
    },
    components: {
      securitySchemes: { apiKey: { type: "apiKey", name: "auth-token", in: "header" } },
    },
  };
}

/** Accounts; a login answers `{token}`; products want that token in `auth-token` (401). */
function restaurant() {
  const users: { username: string; password: string }[] = [];
  const tokens = new Set<string>();
  return serveStandIn(async (req) => {
    const { pathname } = new URL(req.url);
    if (pathname.startsWith("/products")) {
      if (!tokens.has(req.headers.get("auth-token") ?? "")) {
        return Response.json({ error: "Access denied" }, { status: 401 });
      }
      return Response.json([], { status: req.method === "POST" ? 201 : 200 });
    }
    const sent = await req.json();
    if (pathname === "/users") {
      users.push(sent);
      return Response.json({ id: users.length, username: sent.username });
    }
    const found = users.find((u) => u.username === sent.username && u.password === sent.password);
    if (!found) return Response.json({ error: "Bad credentials." }, { status: 401 });
    const token = `t-${crypto.randomUUID()}`;
    tokens.add(token);
    return Response.json({ token }, { headers: { "auth-token": token } });
  });
}

Deno.test("a login that says it hands out an apiKey header's token signs the suite in", async () => {
  const { runs, summary } = await convertAndRunSuite(document(), restaurant(), { runs: 2 });
  for (const run of runs) assert.equal(run.code, 0, `${summary}\n${run.stdout}\n${run.stderr}`);
  assert.doesNotMatch(summary, /API_KEY/);
  assert.match(summary, /BASE_URL/);
});

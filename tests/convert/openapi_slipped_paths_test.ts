/**
 * `convert openapi` on a hand-written YAML document whose path keys slipped
 * an indentation level: `/auth/register:` is left empty and its operations
 * sit under the next key, `register:`, written without the leading slash
 * (and `refresh:`, `logout:` after it the same way), as an Express social
 * API's swagger.yaml does (2025). Before, the flows joined the server's path
 * and the bare key (`/api/v1register`): the sign-up and login were refused,
 * and every flow was skipped. A path key that does not begin with `/` is no
 * path (the specification requires the slash); one that follows an empty
 * path item, or another such key after it, is read as a sibling of that
 * item, under its folder (`/auth/register`, `/auth/refresh`). Elsewhere such
 * a key is read from the root (`users` → `/users`), as the `openapi:`
 * checks always matched it.
 *
 * The stand-in runs on 127.0.0.1 and answers 404 for any other path.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite } from "../support/openapi_suite.ts";
import { emailAccounts } from "../support/email_accounts.ts";
import { placeSlippedPaths } from "../../lib/load/slipped_paths.ts";

const json = (schema: unknown) => ({ content: { "application/json": { schema } } });
const text = { type: "string" };
const credentials = {
  type: "object",
  properties: { email: text, password: text },
  required: ["email", "password"],
};

const document = {
  openapi: "3.0.0",
  info: { title: "Social", version: "1.0.0" },
  components: { securitySchemes: { bearerAuth: { type: "http", scheme: "bearer" } } },
  paths: {
    "/auth/register": null,
    "register": {
      post: {
        tags: ["Auth"],
        requestBody: json({
          ...credentials,
          properties: { ...credentials.properties, name: text },
        }),
        responses: { "201": { description: "Registered" } },
      },
    },
    "/auth/login": null,
    "login": {
      post: {
        tags: ["Auth"],
        requestBody: json(credentials),
        responses: {
          "200": {
            description: "Tokens",
            ...json({ type: "object", properties: { accessToken: text } }),
          },
        },
      },
    },
    "whoami": {
      get: {
        tags: ["Auth"],
        security: [{ bearerAuth: [] }],
        responses: { "200": { description: "Me" } },
      },
    },
    "/notes": {
      get: {
        tags: ["Notes"],
        security: [{ bearerAuth: [] }],
        responses: { "200": { description: "Notes" } },
      },
    },
  },
};

/** Accounts in memory; the signed-in account and its notes. */
function standIn(seen: string[]) {
  return emailAccounts(seen, (req, pathname, token) => {
    if (req.method === "GET" && pathname === "/auth/whoami") return Response.json({ email: token });
    if (req.method === "GET" && pathname === "/notes") return Response.json([]);
    return Response.json({ message: `No route ${pathname}` }, { status: 404 });
  });
}

Deno.test("convert openapi: keys without a slash after an empty path item are its siblings", async () => {
  const seen: string[] = [];
  const { runs, summary } = await convertAndRunSuite(document, standIn(seen));
  assert.equal(runs[0].code, 0, summary + runs[0].stdout);
  assert.match(runs[0].stdout, /4 of 4 operations/, runs[0].stdout);
  for (
    const path of ["POST /auth/register", "POST /auth/login", "GET /auth/whoami", "GET /notes"]
  ) {
    assert.ok(seen.includes(path), seen.join(", "));
  }
});

Deno.test("convert openapi: a key without a slash elsewhere is a path from the root", () => {
  const op = { get: { responses: {} } };
  const doc = {
    paths: {
      "users": op,
      "users/{id}": op,
      "/posts": op,
      "/posts/all": null,
      "drafts": op,
      "x-notes": { kept: true },
      "/files": op,
      "files": op,
    },
  };
  placeSlippedPaths(doc);
  assert.deepEqual(Object.keys(doc.paths), [
    "/users",
    "/users/{id}",
    "/posts",
    "/posts/all",
    "/posts/drafts",
    "x-notes",
    "/files",
    "files",
  ]);
});

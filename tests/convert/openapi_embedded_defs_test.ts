/**
 * A schema that carries its own `definitions` (a JSON Schema made on its
 * own and pasted into the document) names them `#/definitions/Account`:
 * a pointer into itself, which read from the document's root points to
 * nothing. Found on a LoopBack 4 (1.x) blog API measured by hand (see
 * docs/real-servers.md): its sign-up and its administrators' create answer
 * `getJsonSchemaRef(User)`, `{$ref: "#/definitions/User", definitions:
 * {User: …}}`, so both were left out as reaching a `$ref` to nothing, and
 * the summary asked for `LOGIN_EMAIL` and `LOGIN_PASSWORD` of an account
 * "no operation registers". Such a `$ref` is now read in the schema that
 * holds the definition it names (the innermost), where a document root
 * without it sends it; a `$ref` the root answers is the root's, and one
 * nothing holds is still left out (openapi_broken_refs_test.ts).
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const account = {
  type: "object",
  properties: { id: { type: "number" }, email: { type: "string" } },
  required: ["id", "email"],
};

/** An answer whose schema names its own pasted definition. */
const selfContained = {
  "200": {
    description: "The account",
    content: {
      "application/json": {
        schema: { $ref: "#/definitions/Account", definitions: { Account: account } },
      },
    },
  },
};

const DOC = {
  openapi: "3.0.0",
  info: { title: "Blog", version: "1" },
  paths: {
    "/accounts": {
      post: {
        requestBody: {
          required: true,
          content: {
            "application/json": {
              schema: {
                type: "object",
                properties: { email: { type: "string" }, password: { type: "string" } },
                required: ["email", "password"],
              },
            },
          },
        },
        responses: selfContained,
      },
    },
    "/accounts/{id}": {
      get: {
        parameters: [{ name: "id", in: "path", required: true, schema: { type: "number" } }],
        responses: selfContained,
      },
    },
  },
};

function standIn(seen: string[], answer: (id: number) => unknown) {
  return serveStandIn(async (req) => {
    const path = new URL(req.url).pathname;
    seen.push(`${req.method} ${path}`);
    if (req.method === "POST" && path === "/accounts") {
      const body = await req.json();
      if (typeof body.email !== "string") return new Response("no email", { status: 400 });
      return Response.json(answer(7));
    }
    if (req.method === "GET" && path === "/accounts/7") return Response.json(answer(7));
    return new Response("no", { status: 404 });
  });
}

Deno.test("a $ref into the schema's own definitions is followed there, not left out", async () => {
  const seen: string[] = [];
  const server = standIn(seen, (id) => ({ id, email: "a@example.com" }));
  const { runs, summary } = await convertAndRunSuite(DOC, server);
  assert.match(summary, /Converted Blog: 2 operations/);
  assert.doesNotMatch(summary, /Left out/);
  assert.equal(runs[0].code, 0, runs[0].stdout);
  assert.deepEqual(seen, ["POST /accounts", "GET /accounts/7"]);
});

Deno.test("the answer is checked against the pasted definition the $ref names", async () => {
  const seen: string[] = [];
  // `id` a string: the definition says a number, so the check must see it.
  const server = standIn(seen, (id) => ({ id: String(id), email: "a@example.com" }));
  const { runs } = await convertAndRunSuite(DOC, server);
  assert.equal(runs[0].code, 1, runs[0].stdout);
  assert.match(runs[0].stdout, /\/id must be number/);
});

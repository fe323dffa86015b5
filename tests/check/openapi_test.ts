import assert from "node:assert/strict";
import { operationSchema } from "../../lib/check/openapi.ts";
import type { SchemaCheck } from "../../lib/model/flow.ts";

function openapi(document: unknown): Extract<SchemaCheck, { kind: "openapi" }> {
  return { kind: "openapi", source: "api.yaml", document, file: "f.yaml", line: 1, column: 1 };
}

const DOCUMENT = {
  servers: [{ url: "https://api.example.test/v1/" }],
  paths: {
    "/items": { post: { responses: { "201": { content: { "text/plain": {} } } } } },
    "/items/{id}": {
      get: { responses: { "200": {}, "4XX": { $ref: "#/components/responses/E" } } },
    },
    "/items/new": { get: { responses: {} } },
  },
  components: { responses: { E: { description: "no JSON" } } },
};

Deno.test("the operation is found under the first server's base path; a literal segment wins", () => {
  const check = openapi(DOCUMENT);
  assert.deepEqual(operationSchema(check, "GET", "http://x.test/v1/items/new", 200), {
    missing: "api.yaml documents no response 200 for GET /items/new (it has [])",
  });
  assert.deepEqual(operationSchema(check, "POST", "http://x.test/v1/items", 201), {
    missing: "api.yaml gives no JSON body for POST /items 201",
  });
});

Deno.test("a response with no schema takes any JSON: no content, examples only, a range without one", () => {
  const check = openapi(DOCUMENT);
  const bare = operationSchema(check, "GET", "http://x.test/v1/items/7", 200);
  assert.ok("validate" in bare && bare.validate([1, "x"]).length === 0);
  assert.equal(bare.where, "GET /items/{id} 200, which has no schema");
  for (const media of ["application/json", "application/*", "*/*"]) {
    const document = {
      paths: { "/a": { get: { responses: { "200": { content: { [media]: { example: {} } } } } } } },
    };
    const got = operationSchema(openapi(document), "GET", "http://x.test/a", 200);
    assert.ok("validate" in got && got.validate(null).length === 0, media);
  }
});

Deno.test("a status falls back to its class; a $ref to a response is followed", () => {
  const got = operationSchema(openapi(DOCUMENT), "GET", "http://x.test/v1/items/7", 404);
  assert.ok("where" in got, JSON.stringify(got));
  assert.equal(got.where, "GET /items/{id} 4XX, which has no schema");
});

Deno.test("a request no operation serves is named by its method and path", () => {
  const check = openapi(DOCUMENT);
  assert.deepEqual(operationSchema(check, "DELETE", "http://x.test/v1/items/7", 200), {
    missing: "api.yaml has no operation for DELETE /items/7",
  });
  assert.deepEqual(operationSchema(check, "GET", "http://x.test/other", 200), {
    missing: "api.yaml has no operation for GET /other",
  });
});

Deno.test("members are read as what they may be, own ones only: a null path item, an inherited method", () => {
  const odd = openapi({ paths: { "/a": null, "/b": {} }, servers: "x" });
  assert.deepEqual(operationSchema(odd, "GET", "http://x.test/a", 200), {
    missing: "api.yaml has no operation for GET /a",
  });
  assert.deepEqual(operationSchema(odd, "CONSTRUCTOR", "http://x.test/b", 200), {
    missing: "api.yaml has no operation for CONSTRUCTOR /b",
  });
});

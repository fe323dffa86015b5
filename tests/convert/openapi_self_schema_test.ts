/**
 * `convert openapi` on a document with a schema that refers to itself
 * without descending into the value (`schema: {$ref: <its own place>}`),
 * found by tests/convert/openapi_fuzz_test.ts: the flows were written, and
 * every `openapi:` check in them made `validate` refuse the flow. The
 * conversion ends with the same one sentence now, naming the schema.
 */
import assert from "node:assert/strict";
import { convertOpenApi } from "../../lib/convert/openapi/mod.ts";
import { UsageError } from "../../lib/model/errors.ts";

const document = {
  openapi: "3.0.3",
  info: { title: "t", version: "1" },
  paths: {
    "/items": {
      get: {
        parameters: [{ $ref: "#/components/parameters/name" }],
        responses: { "200": { description: "ok" } },
      },
    },
  },
  components: {
    parameters: {
      name: { name: "name", in: "query", schema: { $ref: "#/components/parameters/name/schema" } },
    },
  },
};

Deno.test("openapi: a schema that names itself ends the conversion with one sentence naming it", () => {
  assert.throws(
    () => convertOpenApi({ document, source: "api.json", documentRef: "api.json" }),
    (error: unknown) => {
      assert.ok(error instanceof UsageError, String(error));
      assert.equal(error.code, "bad-openapi");
      assert.match(
        error.message,
        /"api\.json".*#\/components\/parameters\/name\/schema.*refers to itself/,
      );
      return true;
    },
  );
});

Deno.test("openapi: without openapi: checks to write, the same document still converts", () => {
  const { files } = convertOpenApi({ document, source: "api.json" });
  assert.equal(files.length, 1);
});

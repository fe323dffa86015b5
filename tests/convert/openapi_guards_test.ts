/**
 * Hostile documents for convert openapi, each ending quickly with one
 * sentence or a conversion that validates: a JSON document nested 10,000 or
 * 100,000 deep (it ran out of stack, exit 3, or spent minutes copying
 * paths), the deepest one allowed, and names `Object` answers for itself
 * (`format: constructor`).
 */
import assert from "node:assert/strict";
import { assertLinearAsync } from "../support/timing.ts";
import { bundleDocument } from "../../lib/convert/openapi/bundle.ts";
import { convertOpenApi } from "../../lib/convert/openapi/mod.ts";
import { MAX_DOCUMENT_NESTING } from "../../lib/convert/openapi/nesting.ts";
import { loadFlow } from "../../lib/load/mod.ts";
import { UsageError } from "../../lib/model/errors.ts";

const encode = (text: string) => new TextEncoder().encode(text);

/** A one-operation document whose request schema is `schema` (JSON text). */
const withSchema = (schema: string) =>
  `{"openapi": "3.0.3", "info": {"title": "t", "version": "1"}, "paths": {"/a": {"post": {
  "requestBody": {"content": {"application/json": {"schema": ${schema}}}},
  "responses": {"200": {"description": "ok"}}}}}}`;

/** `schema` wrapped in `levels` allOfs, each two levels of JSON. */
const allOf = (levels: number, schema: string) =>
  '{"allOf": ['.repeat(levels) + schema + "]}".repeat(levels);

const bundle = (text: string) =>
  bundleDocument("/doc/api.json", () => Promise.resolve(encode(text)), () => {}, (f) => f);

Deno.test("a JSON document nested past the bound is one sentence naming the line and column", async () => {
  const rejects = (levels: number) =>
    assert.rejects(
      bundle(withSchema(allOf(levels, '{"type": "string"}'))),
      (error: unknown) =>
        error instanceof UsageError && error.code === "bad-openapi" &&
        /nests deeper than 256 levels at line 2, column \d+ \(a schema for deep data names itself through a \$ref instead\)/
          .test(error.message),
    );
  // Ten times the levels, timed in this process one after the other (a busy machine slows both
  // alike): linear is about ten times, a quadratic scan a hundred.
  await assertLinearAsync("nesting past the bound", rejects, 10_000, 10);
  // Braces inside strings are text, not nesting.
  const text = withSchema(`{"type": "string", "example": "${"[{".repeat(1_000)}"}`);
  assert.ok((await bundle(text)).document);
});

Deno.test("a schema nested just within the bound converts into a flow that validates", async () => {
  const object = '{"type": "object", "required": ["x"], "properties": {"x": {"type": "string"}}}';
  // The document around the schema takes 8 levels, the object 3, each allOf 2.
  const levels = Math.floor((MAX_DOCUMENT_NESTING - 11) / 2);
  const { document } = await bundle(withSchema(allOf(levels, object)));
  const { files } = convertOpenApi({
    document: document as Record<string, unknown>,
    source: "api.json",
  });
  const loaded = loadFlow(files[0].text, files[0].path, { env: () => "http://127.0.0.1:9" });
  assert.deepEqual(loaded.problems, []);
  assert.match(files[0].text, /body:\n\s+x: /);
});

Deno.test("a format, type or tag named like Object's own members is read as any other word", () => {
  const document = JSON.parse(withSchema(
    '{"type": "object", "required": ["a", "b"], "properties": {"a": {"type": "string", "format": "constructor"}, "b": {"type": "string", "format": "__proto__"}}}',
  ));
  document.paths["/a"].post.tags = ["constructor"];
  const { files } = convertOpenApi({ document, source: "api.json" });
  // Read as no format: the generator's placeholder text, made per run (run_values.ts).
  assert.match(files[0].text, /a: a-\$\{RANDOM\.HEX_8\}\n\s+b: b-\$\{RANDOM\.HEX_8\}/);
});

Deno.test("a $ref of 200,000 characters is quoted cut, not whole, in its one sentence", async () => {
  const ref = `#/${"a/".repeat(100_000)}b`;
  await assert.rejects(
    bundle(withSchema(JSON.stringify({ $ref: ref }))),
    (error: unknown) =>
      error instanceof UsageError && error.code === "bad-openapi-ref" &&
      error.message.length < 1_000 &&
      /… \(200,003 characters\)" at \/doc\/api\.json#/.test(error.message),
  );
});

Deno.test("a $ written before a path parameter is sent, not the parameter's expression", () => {
  const document = JSON.parse(withSchema('{"type": "string"}'));
  document.paths = {
    "/items/${itemId}/$value": {
      get: {
        parameters: [{ name: "itemId", in: "path", required: true, schema: { type: "string" } }],
        responses: { "200": { description: "ok" } },
      },
    },
  };
  const { files } = convertOpenApi({ document, source: "api.json" });
  assert.match(files[0].text, /url: \$\{ENV\.BASE_URL\}\/items\/%24\$\{vars\.itemId\}\/\$value$/m);
  const loaded = loadFlow(files[0].text, files[0].path, { env: () => "http://127.0.0.1:9" });
  assert.deepEqual(loaded.problems, []);
});

Deno.test("a property named ${k} or {{k}} is sent as written, and the flow validates", () => {
  const document = JSON.parse(withSchema(JSON.stringify({
    type: "object",
    required: ["${k}", "{{k}}", "a: b"],
    properties: { "${k}": { example: "${v}" }, "{{k}}": { example: 1 }, "a: b": { const: "- x" } },
  })));
  const { files } = convertOpenApi({ document, source: "api.json" });
  assert.match(
    files[0].text,
    /"\$\$\{k\}": \$\$\{v\}\n\s+"\$\{vars\.lbrace\}\{k\}\}": 1\n\s+"a: b": "- x"/,
  );
  const loaded = loadFlow(files[0].text, files[0].path, { env: () => "http://127.0.0.1:9" });
  assert.deepEqual(loaded.problems, []);
});

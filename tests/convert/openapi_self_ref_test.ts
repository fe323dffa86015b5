/**
 * `convert openapi` on an operation or path item whose `$ref` names a place
 * that holds it (`#`, `#/paths`, its own path item), found by
 * tests/convert/openapi_fuzz_test.ts: putting the target in place made the
 * document a cycle, and the CLI's copy of it beside the flows crashed
 * (`Converting circular structure to JSON`, exit 3). It is one positioned
 * sentence now, naming the `$ref` and where it is.
 */
import assert from "node:assert/strict";
import { bundleDocument, checkDocument } from "../../lib/convert/openapi/mod.ts";
import { UsageError } from "../../lib/model/errors.ts";

const bundle = (paths: unknown) => {
  const text = JSON.stringify({ openapi: "3.0.3", info: { title: "t", version: "1" }, paths });
  const read = () => Promise.resolve(new TextEncoder().encode(text));
  return bundleDocument("/d/api.json", read, (d) => checkDocument(d, "api.json"), (f) => f);
};
const ok = { responses: { "200": { description: "ok" } } };

for (
  const [where, paths] of [
    ["an operation to #/paths", { "/items": { get: { $ref: "#/paths" } }, "/b": { get: ok } }],
    ["an operation to #", { "/items": { get: { $ref: "#" } } }],
    ["an operation to its path item", { "/items": { get: { $ref: "#/paths/~1items" }, post: ok } }],
    ["a path item to #/paths", { "/items": { $ref: "#/paths" } }],
  ] as const
) {
  Deno.test(`openapi: a $ref of ${where} is one sentence naming it`, async () => {
    await assert.rejects(bundle(paths), (error: unknown) => {
      assert.ok(error instanceof UsageError, String(error));
      assert.equal(error.code, "bad-openapi-ref");
      assert.match(error.message, /paths\/~1items/);
      assert.match(error.message, /holds it/);
      return true;
    });
  });
}

Deno.test("openapi: an operation's $ref to another path's operation is still put in place", async () => {
  const { document } = await bundle({
    "/items": { get: { $ref: "#/paths/~1b/get" } },
    "/b": { get: ok },
  });
  assert.doesNotThrow(() => JSON.stringify(document));
  assert.deepEqual((document.paths as Record<string, unknown>)["/items"], { get: ok });
});

/**
 * `convert openapi` on a tag longer than a file name may be (a description
 * pasted into `tags:`), found by tests/convert/openapi_fuzz_test.ts: the
 * flow's file was named for all of it and writing it failed (`File name too
 * long`, exit 3). The file name is clipped now; the flow keeps its name.
 */
import assert from "node:assert/strict";
import { convertOpenApi } from "../../lib/convert/openapi/mod.ts";
import { loadFlow } from "../../lib/load/mod.ts";

Deno.test("openapi: a tag longer than a file name names a file of at most 80 characters", () => {
  const tag = "Items and everything about them ".repeat(40);
  const op = (id: string) => ({
    operationId: id,
    tags: [tag],
    responses: { "200": { description: "ok" } },
  });
  const document = {
    openapi: "3.0.3",
    info: { title: "t", version: "1" },
    paths: {
      "/items": { get: op("listItems") },
      "/other": { get: { ...op("listOther"), tags: [`${tag}2`] } },
    },
  };
  const { files } = convertOpenApi({ document, source: "api.json" });
  const flows = files.filter((f) => f.path.endsWith(".yaml"));
  assert.equal(flows.length, 2);
  assert.equal(new Set(flows.map((f) => f.path)).size, 2);
  for (const f of flows) {
    assert.ok(f.path.length <= 80, f.path);
    assert.deepEqual(loadFlow(f.text, f.path, { env: () => "http://127.0.0.1:9" }).problems, []);
  }
});

/** An `assert` block (lib/load/checks.ts). */
import assert from "node:assert/strict";
import { codesOf, loadStepFlow, stepOf } from "../support/step_flow.ts";

Deno.test("json paths are rooted at the response, jsonpath paths at the body", () => {
  const checks = stepOf([
    "assert: {json: [{path: $.json.id, exists: true}], jsonpath: [{path: $.id, exists: true}]}",
  ]).assert;
  assert.deepEqual(checks.paths.map((c) => c.path.source), ["$.json.id", "$.id"]);
});

Deno.test("a block that is not a list, and an unknown assert key", () => {
  const [p] = loadStepFlow(["assert: {jsonpath: {path: $.id}}"]).problems;
  assert.equal(p.hint, 'Write each check as a list item: "- {path: $.id, exists: true}".');
  assert.deepEqual(codesOf(["assert: {body: x}"]), ["unknown-key"]);
  assert.deepEqual(codesOf(["assert: [status]"]), ["wrong-type"]);
});

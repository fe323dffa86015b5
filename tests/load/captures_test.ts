/** A step's `capture` and `extract` blocks (lib/load/captures.ts). */
import assert from "node:assert/strict";
import { codesOf, stepOf } from "../support/step_flow.ts";

Deno.test("capture paths are rooted at the response, extract paths at the body", () => {
  const captures = stepOf(["capture: {a: $.json.a}", "extract: {b: $.b}"]).captures;
  assert.deepEqual(
    captures.map((c) => [c.name, c.from.kind === "path" && c.from.path.source, c.line]),
    [["a", "$.json.a", 5], ["b", "$.b", 6]],
  );
});

Deno.test("a name that cannot be referenced, a name twice, a block that is not a map", () => {
  assert.deepEqual(codesOf(['capture: {"a b": $.json.a}']), ["bad-name"]);
  assert.deepEqual(codesOf(["capture: {a: $.json.a}", "extract: {a: $.a}"]), ["duplicate-capture"]);
  assert.deepEqual(codesOf(["extract: [$.a]"]), ["wrong-type"]);
  assert.deepEqual(codesOf(["capture:"]), []);
});

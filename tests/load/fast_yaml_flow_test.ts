/**
 * One-line flow collections on the fast path: the same values, styles and
 * ranges as the `yaml` package, nested; anything else (a comment, a pair in
 * a list, a key met twice, a collection as a key, a line end inside) hands
 * the file to the full parser.
 */
import assert from "node:assert/strict";
import { parseDocument } from "yaml";
import { FlowReader } from "../../lib/load/fast_yaml_flow.ts";
import { GiveUp } from "../../lib/load/fast_yaml_scalars.ts";

function read(value: string) {
  const text = `k: ${value}`;
  const reader = new FlowReader(text, 3, text.length, 0);
  return { node: reader.collection(), reader, text };
}

Deno.test("flow collections read as the yaml package reads them", () => {
  for (
    const value of [
      "[]",
      "{}",
      "[1, two, 'three', \"fo\\tur\", null, true, -1.5]",
      "{a: 1, b: [x, {c: d}], 'e f': \"g\"}",
      "{url: http://x.test/a?b=c, n: }",
      "[ a , b ]",
    ]
  ) {
    const { node, reader, text } = read(value);
    const full = parseDocument(text, { intAsBigInt: true }).get("k", true) as { range: number[] };
    assert.deepEqual(node.toJSON(), parseDocument(text).toJSON().k, value);
    assert.deepEqual(node.range!.slice(0, 2), full.range.slice(0, 2), value);
    assert.equal(reader.i, text.length, value);
  }
});

Deno.test("what the fast path leaves to the full parser", () => {
  for (
    const value of [
      "[a, # c\n]",
      "[a: b]",
      "{a: 1, a: 2}",
      "{<<: {a: 1}}",
      "{[a]: b}",
      "[a, b",
      "['a",
      "[- a]",
      "[a[b]]",
    ]
  ) {
    assert.throws(() => read(value), GiveUp, value);
  }
});

Deno.test("nesting past the limit gives up", () => {
  assert.throws(() => read(`${"[".repeat(70)}${"]".repeat(70)}`), GiveUp);
  assert.deepEqual(read(`${"[".repeat(10)}${"]".repeat(10)}`).node.items.length, 1);
});

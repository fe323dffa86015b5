import assert from "node:assert/strict";
import {
  MAX_WALK_DEPTH,
  parseBody,
  safeDecode,
  TooDeepJson,
  valueKey,
  walk,
} from "../../lib/convert/json.ts";

Deno.test("parseBody refuses JSON nested past MAX_WALK_DEPTH, and reads any other", () => {
  assert.deepEqual(parseBody('{"a":[1]}'), { a: [1] });
  const deep = "[".repeat(MAX_WALK_DEPTH + 1) + "]".repeat(MAX_WALK_DEPTH + 1);
  assert.throws(() => parseBody(deep), TooDeepJson);
  assert.throws(() => parseBody("{"), SyntaxError);
});

Deno.test("walk visits leaves with their paths and stops at its limit", () => {
  const seen: [unknown[], string, unknown][] = [];
  walk({ a: [{ b: 1 }, 2], c: null }, (path, key, leaf) => seen.push([path, key, leaf]));
  assert.deepEqual(seen, [[["a", 0, "b"], "b", 1], [["a", 1], "a", 2], [["c"], "c", null]]);
  let n = 0;
  walk([1, 2, 3, 4], () => n++, 2);
  assert.equal(n, 2);
});

Deno.test("valueKey tells types apart; safeDecode keeps a broken encoding", () => {
  assert.notEqual(valueKey(1), valueKey("1"));
  assert.equal(safeDecode("a+b%20c"), "a b c");
  assert.equal(safeDecode("%E0%A4%A"), "%E0%A4%A");
});

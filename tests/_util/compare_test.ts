import assert from "node:assert/strict";
import { compareCodePoints } from "../../lib/_util/compare.ts";

Deno.test("code-point order puts astral characters after U+FFFF and prefixes first", () => {
  const sorted = ["\u{1F600}", "\uFF5E", "ab", "a", "B"].sort(compareCodePoints);
  assert.deepEqual(sorted, ["B", "a", "ab", "\uFF5E", "\u{1F600}"]);
  assert.equal(compareCodePoints("x", "x"), 0);
});

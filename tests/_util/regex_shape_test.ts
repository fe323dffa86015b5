import assert from "node:assert/strict";
import { isTame } from "../../lib/_util/regex_shape.ts";

Deno.test("patterns whose backtracking nothing simple bounds are never tame", () => {
  for (
    const pattern of [
      "^(a+)+$",
      "(a|b)*",
      "(\\w)\\1",
      "(?<q>.)\\k<q>",
      "a(?=b)",
      "(?<!x)y",
      "(ab){2}",
    ]
  ) {
    assert.equal(isTame(pattern, 1), false, pattern);
  }
});

Deno.test("a tame pattern's worst case is (n + 1)^(open + 1) × its choices, at most 1e7", () => {
  // One open quantifier: (n + 1)^2 ≤ 1e7 up to n = 3161.
  assert.equal(isTame("^a+$", 3161), true);
  assert.equal(isTame("^a+$", 3162), false);
  // A class is one character; an escaped character is one character.
  assert.equal(isTame("^[(+*]\\+$", 1_000_000), true);
  // `{2,}` is open-ended, `{1,3}` three choices, `?` and `|` two each.
  assert.equal(isTame("a{2,}b{2,}", 200), true);
  assert.equal(isTame("a{2,}b{2,}", 300), false);
  assert.equal(isTame("x{1,3}", 3_333_332), true);
  assert.equal(isTame("x{1,3}", 3_333_333), false);
  assert.equal(isTame("a?|b", 2_499_999), true);
  assert.equal(isTame("a?|b", 2_500_000), false);
  // A literal "{" is one character; a lazy quantifier has the same choices.
  assert.equal(isTame("^{x}a+?$", 3161), true);
});

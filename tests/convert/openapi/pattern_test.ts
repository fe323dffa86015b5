/**
 * The bounds of making a string for a schema `pattern`: a hostile or huge
 * pattern gives undefined (the caller keeps its value) at once, never an
 * exception, a hang or a blown stack.
 */
import assert from "node:assert/strict";
import {
  fromPattern,
  MAX_PATTERN_DEPTH,
  MAX_PATTERN_LENGTH,
  MAX_PATTERN_TEXT,
  patternRegExp,
} from "../../../lib/convert/openapi/pattern.ts";

Deno.test("a pattern longer than the bound is not read (V8 would throw 'too large' on its first run)", () => {
  const huge = "a".repeat(100_000);
  assert.equal(patternRegExp(huge), undefined);
  assert.equal(fromPattern(huge), undefined);
  assert.equal(fromPattern("a".repeat(MAX_PATTERN_LENGTH)), "a".repeat(MAX_PATTERN_LENGTH));
  assert.equal(fromPattern("a".repeat(MAX_PATTERN_LENGTH + 1)), undefined);
});

Deno.test("groups nested past the bound are not read, however deep", () => {
  const nest = (n: number) => "(".repeat(n) + "a" + ")".repeat(n);
  assert.equal(fromPattern(nest(MAX_PATTERN_DEPTH)), "a");
  assert.equal(fromPattern(nest(MAX_PATTERN_DEPTH + 1)), undefined);
  assert.equal(fromPattern(nest(2_000)), undefined);
});

Deno.test("counts whose text would pass the bound give undefined, nested ones too", () => {
  assert.equal(fromPattern(`^a{${MAX_PATTERN_TEXT / 10}}$`)?.length, MAX_PATTERN_TEXT / 10);
  assert.equal(fromPattern("a{1000000}"), undefined);
  assert.equal(fromPattern("^(a{1000}){1000}$"), undefined);
  assert.equal(fromPattern("((a{1000}){1000}){1000}"), undefined);
  assert.equal(fromPattern("a{1000}".repeat(20)), undefined);
});

Deno.test("nested quantifiers are read on their first path: (a+)+$ gives 'a'", () => {
  assert.equal(fromPattern("(a+)+$"), "a");
  assert.equal(fromPattern("^(\\w+\\s?)*$"), "");
});

import assert from "node:assert/strict";
import { suggest } from "../../lib/_util/suggest.ts";

const STEP_KEYS = ["name", "request", "capture", "extract", "assert", "depends_on", "loop"];
const OPERATORS = ["exists", "type", "equals", "notEquals", "matches", "anyOf", "contains"];

Deno.test("suggest finds a key with one extra letter", () => {
  assert.equal(suggest("captures", STEP_KEYS), "capture");
  assert.equal(suggest("requests", STEP_KEYS), "request");
});

Deno.test("suggest finds a key with one missing or wrong letter", () => {
  assert.equal(suggest("extrct", STEP_KEYS), "extract");
  assert.equal(suggest("asserr", STEP_KEYS), "assert");
  assert.equal(suggest("equal", OPERATORS), "equals");
});

Deno.test("suggest counts a transposition as one edit", () => {
  assert.equal(suggest("asesrt", STEP_KEYS), "assert");
  assert.equal(suggest("mathces", OPERATORS), "matches");
  // Two swaps in a six-letter word are two edits, the limit for six letters.
  assert.equal(suggest("satuts", ["status"]), "status");
});

Deno.test("suggest folds case, underscores and hyphens", () => {
  assert.equal(suggest("dependsOn", STEP_KEYS), "depends_on");
  assert.equal(suggest("depends-on", STEP_KEYS), "depends_on");
  assert.equal(suggest("DEPENDS_ON", STEP_KEYS), "depends_on");
  assert.equal(suggest("not_equals", OPERATORS), "notEquals");
  assert.equal(suggest("anyof", OPERATORS), "anyOf");
});

Deno.test("suggest allows a typo on top of folding", () => {
  assert.equal(suggest("dependOn", STEP_KEYS), "depends_on");
});

Deno.test("suggest returns a candidate that folds equal even after a closer-looking one", () => {
  assert.equal(suggest("Loop", ["look", "loop"]), "loop");
});

Deno.test("suggest returns nothing when every candidate is far", () => {
  assert.equal(suggest("zzz", STEP_KEYS), undefined);
  assert.equal(suggest("timeout", STEP_KEYS), undefined);
  assert.equal(suggest("headers", OPERATORS), undefined);
});

Deno.test("suggest returns nothing without candidates", () => {
  assert.equal(suggest("capture", []), undefined);
});

Deno.test("suggest allows about one edit per three characters", () => {
  // Nine letters allow three edits.
  assert.equal(suggest("abcdefxyz", ["abcdefghi"]), "abcdefghi");
  assert.equal(suggest("abcdewxyz", ["abcdefghi"]), undefined);
});

Deno.test("suggest needs a close match for short words", () => {
  // Two-letter words allow a single edit.
  assert.equal(suggest("gx", ["gt"]), "gt");
  assert.equal(suggest("xy", ["gt"]), undefined);
  assert.equal(suggest("lt", ["lte"]), "lte");
  assert.equal(suggest("lt", ["gte"]), undefined);
  assert.equal(suggest("ab", ["abcd"]), undefined);
});

Deno.test("suggest prefers the closest candidate", () => {
  assert.equal(suggest("contain", ["containsAll", "contains"]), "contains");
  assert.equal(suggest("containAll", ["contains", "containsAll"]), "containsAll");
});

Deno.test("suggest keeps the first listed among equally close candidates", () => {
  assert.equal(suggest("lte", ["gte", "lt"]), "gte");
  assert.equal(suggest("lte", ["lt", "gte"]), "lt");
});

Deno.test("suggest accepts any iterable of candidates", () => {
  assert.equal(suggest("extrat", new Set(STEP_KEYS)), "extract");
});

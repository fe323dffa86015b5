/**
 * `contains` as chai's `include` reads it, which Postman scripts translate to
 * (`pm.expect(json).to.deep.include({ method: "GET" })`,
 * `pm.expect(json.url).to.include(pm.collectionVariables.get("ownerId"))` with
 * a number set earlier): an object holds another when it has each of its
 * members, deep-equal, and a number is found in text by its text. Both failed
 * under flowrun where Newman passed them (tests/real/httpbin_postman_test.ts).
 */
import assert from "node:assert/strict";
import { PLAIN } from "../../lib/check/json_value.ts";
import { OPERATOR_TABLE } from "../../lib/check/operators.ts";

const contains = (actual: unknown, expected: unknown) =>
  OPERATOR_TABLE.contains.check(actual, expected, PLAIN);

Deno.test("contains: an object holds each member of another, deep-equal, and no other object", () => {
  const echoed = { method: "GET", args: { shelf: "north", count: "3" }, json: null };
  assert.equal(contains(echoed, { method: "GET" }), undefined);
  assert.equal(contains(echoed, { args: { count: "3", shelf: "north" }, json: null }), undefined);
  assert.match(contains(echoed, { method: "POST" }) ?? "", /to contain/);
  assert.match(contains(echoed, { args: { shelf: "north" } }) ?? "", /to contain/);
  assert.match(contains(echoed, { missing: undefined }) ?? "", /to contain/);
  assert.match(contains({ a: 1 }, [1]) ?? "", /to contain/);
});

Deno.test("contains: a number or boolean is found in text by its text", () => {
  assert.equal(contains("/records/42?token=t", 42), undefined);
  assert.equal(contains("flag=true", true), undefined);
  assert.match(contains("/records/7", 42) ?? "", /to contain 42/);
  // A list still holds the number itself, not its text.
  assert.match(contains(["42"], 42) ?? "", /to contain 42/);
});

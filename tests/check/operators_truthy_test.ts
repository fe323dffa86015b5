/**
 * `truthy`: one check for what a script's `if (json && json.id)` asks, the
 * value is there and not `false`, `null`, `0` or `""` (JavaScript's falsy
 * values a JSON document can hold). The Postman converter wrote five checks
 * per value for it (exists, then four notEquals), ten for `json && json.id`.
 */
import assert from "node:assert/strict";
import { PLAIN } from "../../lib/check/json_value.ts";
import { OPERATOR_TABLE } from "../../lib/check/operators.ts";
import { OPERATOR_SPECS } from "../../lib/model/operators.ts";

const truthy = (actual: unknown, expected: unknown) =>
  OPERATOR_TABLE.truthy.check(actual, expected, PLAIN);

Deno.test("truthy: true holds for any value but false, null, 0 and the empty text", () => {
  for (const v of [1, -1, "0", "a", true, [], {}, { id: 0 }]) {
    assert.equal(truthy(v, true), undefined);
  }
  for (const v of [false, null, 0, -0, ""]) {
    assert.match(truthy(v, true) ?? "", /expected a truthy value/);
  }
});

Deno.test("truthy: false holds for those four values only", () => {
  for (const v of [false, null, 0, ""]) assert.equal(truthy(v, false), undefined);
  assert.match(truthy("a", false) ?? "", /expected a falsy value/);
});

Deno.test("truthy: its expected value is true or false", () => {
  assert.equal(OPERATOR_SPECS.truthy.accepts?.(true), true);
  assert.equal(OPERATOR_SPECS.truthy.accepts?.("yes"), false);
});

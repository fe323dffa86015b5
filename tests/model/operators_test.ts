/** The operators as the flow format spells them: one spec each, and a check each in check/. */
import assert from "node:assert/strict";
import { OPERATOR_SPECS, OPERATORS } from "../../lib/model/operators.ts";
import { OPERATOR_TABLE } from "../../lib/check/operators.ts";

Deno.test("every operator has a spec and a check, and nothing else has either", () => {
  assert.deepEqual(Object.keys(OPERATOR_SPECS), [...OPERATORS]);
  assert.deepEqual(Object.keys(OPERATOR_TABLE), [...OPERATORS]);
});

Deno.test("a constrained operator says what it expects and has a schema definition", () => {
  for (const op of OPERATORS) {
    const spec = OPERATOR_SPECS[op];
    assert.ok(spec.description.endsWith("."), op);
    if (spec.accepts) assert.ok(spec.expects && spec.schemaDef, op);
  }
  assert.equal(OPERATOR_SPECS.length.accepts?.(-1), false);
  assert.equal(OPERATOR_SPECS.exists.accepts?.(true), true);
  assert.equal(OPERATOR_SPECS.anyOf.accepts?.("a"), false);
});

/** An operator's expected value (lib/load/expected.ts). */
import assert from "node:assert/strict";
import { TYPE_HINTS } from "../../lib/load/expected.ts";
import { loadStepFlow, stepOf } from "../support/step_flow.ts";

const check = (ops: string) => [`assert: {json: [{path: $.json.a, ${ops}}]}`];

Deno.test("a constant is checked against what its operator accepts, with the operator's hint", () => {
  const [gt] = loadStepFlow(check('gt: "5"')).problems;
  assert.equal(gt.code, "wrong-type");
  assert.match(gt.message, /^Expected "gt" to be a number, got the string "5"\.$/);
  assert.equal(gt.hint, "Write the number unquoted: gt: 5.");
  const [type] = loadStepFlow(check("type: dict")).problems;
  assert.equal(type.hint, `Did you mean "${TYPE_HINTS.dict}"?`);
  const [regex] = loadStepFlow(check('matches: "("')).problems;
  assert.equal(regex.code, "bad-regex");
});

Deno.test("an expression is checked when the step runs, not now", () => {
  const [path] = stepOf(check('gt: "${ENV.LIMIT:-5}", type: number')).assert.paths;
  assert.equal(path.expected.kind, "template");
});

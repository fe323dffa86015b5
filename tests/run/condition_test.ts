import assert from "node:assert/strict";
import { unmetCondition } from "../../lib/run/condition.ts";
import { loadFlow } from "../../lib/load/load_flow.ts";
import { Redactor } from "../../lib/secrets/mod.ts";
import "../support/engines.ts";

function firstStep(condition: string) {
  const { flow, problems } = loadFlow(
    `name: f\nvars: {n: 3}\nsteps:\n  - name: a\n    request: {url: "http://a.test/"}\n    capture: {x: $.json.x}\n  - name: s\n    if: ${condition}\n    request: {url: "http://a.test/"}\n`,
    "f.yaml",
  );
  assert.deepEqual(problems, []);
  return flow!.steps[1];
}

const scope = {
  env: () => undefined,
  vars: new Map<string, unknown>([["n", 3]]),
  steps: new Map(),
  runId: "r",
};
const ctx = { redactor: new Redactor() };

Deno.test("a condition that holds lets the step run", () => {
  assert.equal(unmetCondition(firstStep('{value: "${vars.n}", equals: 3}'), scope, ctx), undefined);
});

Deno.test("a condition that does not hold skips the step, saying which and why", () => {
  const unmet = unmetCondition(firstStep('{value: "${vars.n}", equals: 4}'), scope, ctx);
  assert.equal(unmet?.kind, "condition");
  assert.match(unmet!.message, /^Skipped: its condition .* does not hold \(/);
});

Deno.test("a condition whose expression has no value (step a never ran) is an error of the step", () => {
  const unmet = unmetCondition(
    firstStep('{value: "${steps.a.capture.x}", equals: 4}'),
    scope,
    ctx,
  );
  assert.equal(unmet?.kind, "expression");
});

/** A run's totals are counted from its flow results, whatever their statuses. */
import assert from "node:assert/strict";
import {
  countStatuses,
  type FlowResult,
  REPORT_SCHEMA_VERSION,
  type StepResult,
  totalsOf,
} from "../../lib/model/result.ts";

const step = (status: StepResult["status"], checks: boolean[]): StepResult =>
  ({
    name: status,
    status,
    duration_ms: 1,
    attempts: 1,
    line: 1,
    column: 1,
    captures: [],
    assertions: checks.map((passed) => ({ passed })),
  }) as unknown as StepResult;

const flow = (status: FlowResult["status"], steps: StepResult[]): FlowResult =>
  ({ file: "f.yaml", name: "f", status, duration_ms: 1, steps }) as unknown as FlowResult;

Deno.test("countStatuses counts each status, zero for the absent ones", () => {
  assert.deepEqual(
    countStatuses([{ status: "passed" }, { status: "failed" }, { status: "passed" }]),
    {
      total: 3,
      passed: 2,
      failed: 1,
      error: 0,
      skipped: 0,
    },
  );
  assert.deepEqual(countStatuses([]), { total: 0, passed: 0, failed: 0, error: 0, skipped: 0 });
});

Deno.test("totalsOf counts flows, steps and checks of every flow", () => {
  const totals = totalsOf([
    flow("passed", [step("passed", [true, true]), step("skipped", [])]),
    flow("failed", [step("failed", [true, false]), step("error", [])]),
  ]);
  assert.deepEqual(totals.flows, { total: 2, passed: 1, failed: 1, error: 0, skipped: 0 });
  assert.deepEqual(totals.steps, { total: 4, passed: 1, failed: 1, error: 1, skipped: 1 });
  assert.deepEqual(totals.assertions, { total: 4, passed: 3, failed: 1 });
  assert.equal(REPORT_SCHEMA_VERSION, 1);
});

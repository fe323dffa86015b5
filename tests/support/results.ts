/** Building run results for report tests. */
import {
  type AssertionResult,
  type FlowResult,
  type RunResult,
  type StepResult,
  totalsOf,
} from "../../lib/model/result.ts";

/** A run result around some flows, with fixed run facts so output is reproducible. */
export function run(flows: FlowResult[], duration_ms = 2345.4): RunResult {
  return {
    run_id: "20250301-101500-a1b2c3",
    runner_version: "0.1.0",
    started_at: "2025-03-01T10:15:00.000Z",
    duration_ms,
    status: flows.every((f) => f.status === "passed") ? "passed" : "failed",
    totals: totalsOf(flows),
    flows,
  };
}

/**
 * A failed step `get` with nothing sent and no checks; `over` sets any other
 * field (its name, message, checks).
 */
export function failedStep(over: Partial<StepResult> = {}): StepResult {
  return {
    name: "get",
    status: "failed",
    duration_ms: 1,
    attempts: 1,
    line: 1,
    column: 1,
    request: null,
    response: null,
    captures: [],
    assertions: [],
    ...over,
  };
}

/** A failed check `$.a equals 1` that got `actual`; `over` sets its position or other fields. */
export function failedCheck(actual: unknown, over: Partial<AssertionResult> = {}): AssertionResult {
  return {
    phase: "assert",
    path: "$.a",
    operator: "equals",
    expected: 1,
    actual,
    found: true,
    passed: false,
    message: "m",
    line: 1,
    column: 1,
    ...over,
  };
}

/** The flow `NAME.yaml` named `name` that ended `status` with `steps`, timed as 1 ms. */
export function flowOf(
  name: string,
  status: FlowResult["status"],
  steps: StepResult[] = [],
): FlowResult {
  return { file: `${name}.yaml`, name, status, started_at: "", duration_ms: 1, steps };
}

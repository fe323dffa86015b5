/** Building run results for report tests, and reading what a reporter wrote of one. */
import assert from "node:assert/strict";
import {
  type AssertionResult,
  type FlowResult,
  type RunResult,
  type StepResult,
  totalsOf,
} from "../../lib/model/result.ts";
import type { Reporter } from "../../lib/report/reporter.ts";

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

/** The step `name` at `line` (column 5) skipped with `message`: nothing sent, nothing checked. */
export function skippedStep(name: string, line: number, message: string): StepResult {
  return {
    name,
    status: "skipped",
    duration_ms: 0,
    attempts: 0,
    line,
    column: 5,
    request: null,
    response: null,
    assertions: [],
    captures: [],
    message,
    failure_kind: "skipped",
  };
}

/**
 * What a reporter `make` builds around a writer wrote over the events of
 * `result`: nothing before the run ends (asserted), then each text written.
 */
export async function writtenAtRunEnd(
  make: (write: (text: string) => Promise<void>) => Reporter,
  result: RunResult,
): Promise<string[]> {
  const written: string[] = [];
  const reporter = make((text) => {
    written.push(text);
    return Promise.resolve();
  });
  await reporter.onRunStart?.({ ...result, files: [] });
  for (const flow of result.flows) await reporter.onFlowEnd?.(flow);
  assert.equal(written.length, 0, "nothing is written before the run ends");
  await reporter.onRunEnd?.(result);
  return written;
}

/**
 * The run result of a flow set that could not run: when flow files have
 * problems nothing is sent (exit 2), but every requested report is still
 * written and says so, so CI never picks up an earlier run's green report.
 * Each file with problems becomes a flow with status `error` and one step per
 * problem (`failure_kind: invalid`, positioned at the problem); the other
 * files are flows skipped as not run. The problems also go, as they are,
 * into the result's `problems`.
 *
 * @module
 */
import type { Problem } from "../model/errors.ts";
import type { FlowResult, RunResult, StepResult } from "../model/result.ts";
import { totalsOf } from "../model/result.ts";
import { VERSION } from "../model/version.ts";
import { plural } from "../_util/plural.ts";

/**
 * What is known of the run that did not happen.
 *
 * @example
 * ```ts
 * import type { InvalidRun } from "./invalid_run.ts";
 * const run: InvalidRun = { run_id: "r", started_at: "2026-01-01T00:00:00.000Z", problems: [], files: ["a.yaml"] };
 * if (run.files.length !== 1) throw new Error();
 * ```
 */
export interface InvalidRun {
  /** The run id the run would have had. */
  run_id: string;
  /** When the run was attempted (ISO 8601). */
  started_at: string;
  /** Every problem of the flow set. */
  problems: readonly Problem[];
  /** Every selected flow file, in run order, with or without problems. */
  files: readonly string[];
}

function problemStep(p: Problem): StepResult {
  const hint = p.hint ? ` Hint: ${p.hint}` : "";
  return {
    name: `${p.code} at line ${p.line}, column ${p.column}`,
    status: "error",
    duration_ms: 0,
    attempts: 0,
    line: p.line,
    column: p.column,
    request: null,
    response: null,
    assertions: [],
    captures: [],
    message: `${p.file}:${p.line}:${p.column} ${p.message}${hint}`,
    failure_kind: "invalid",
  };
}

/**
 * The result that reports a flow set with problems: nothing ran, status
 * `failed`, and each problem a failed step of its file.
 *
 * @example
 * ```ts
 * import { invalidRunResult } from "./invalid_run.ts";
 * const result = invalidRunResult({
 *   run_id: "r1", started_at: "2026-01-01T00:00:00.000Z", files: ["a.yaml", "b.yaml"],
 *   problems: [{ code: "unknown-key", message: 'Unknown key "stepz".', file: "a.yaml", line: 2, column: 1 }],
 * });
 * if (result.status !== "failed" || result.flows[0].steps[0].failure_kind !== "invalid") throw new Error();
 * if (result.flows[1].status !== "skipped" || result.problems?.length !== 1) throw new Error();
 * ```
 */
export function invalidRunResult(run: InvalidRun): RunResult {
  const byFile = new Map<string, Problem[]>();
  for (const p of run.problems) byFile.set(p.file, [...byFile.get(p.file) ?? [], p]);
  const files = [...new Set([...run.files, ...byFile.keys()])];
  const withProblems = byFile.size;
  const notRun = `Not run: ${plural(withProblems, "flow file has", "flow files have")} problems.`;
  const flows: FlowResult[] = files.map((file) => {
    const problems = byFile.get(file);
    return {
      file,
      name: file.slice(file.lastIndexOf("/") + 1),
      status: problems ? "error" : "skipped",
      started_at: run.started_at,
      duration_ms: 0,
      steps: problems ? problems.map(problemStep) : [{
        name: "not run",
        status: "skipped",
        duration_ms: 0,
        attempts: 0,
        line: 1,
        column: 1,
        request: null,
        response: null,
        assertions: [],
        captures: [],
        message: notRun,
        failure_kind: "skipped",
      }],
    };
  });
  return {
    run_id: run.run_id,
    runner_version: VERSION,
    started_at: run.started_at,
    duration_ms: 0,
    status: "failed",
    problems: run.problems.map(({ file, line, column, code, message, hint }) => ({
      file,
      line,
      column,
      code,
      message,
      ...(hint ? { hint } : {}),
    })),
    totals: totalsOf(flows),
    flows,
  };
}

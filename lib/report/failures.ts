/**
 * The failed steps of a run as the reporters that point at failures see them
 * (the console recap, GitHub annotations and job summary, GitLab code
 * quality): each with the position to look at — the first failed check's,
 * else the step's, in the file the step is written in — and a one-line reason.
 *
 * @module
 */
import type { AssertionResult, FlowResult, StepResult } from "../result.ts";

/** A step that failed or had an error: where to look and why. */
export interface StepFailure {
  /** The flow the step belongs to. */
  flow: FlowResult;
  /** The step. */
  step: StepResult;
  /** The step's checks that failed, in order (a skipped group is no failure). */
  checks: AssertionResult[];
  /** The file the step is written in: an included flow's, else the flow's own. */
  file: string;
  /** Line of the first failed check, else of the step. */
  line: number;
  /** Column of the first failed check, else of the step. */
  column: number;
  /** The first failed check's message, else the step's message, else its status. */
  reason: string;
}

/**
 * The steps that failed or had an error, with the flow each belongs to, in
 * the order of `flows` and of their steps.
 *
 * @example
 * ```ts
 * import { stepFailures } from "./failures.ts";
 * const step = { name: "get", status: "failed", line: 3, column: 5, message: "Failed.",
 *   assertions: [{ passed: false, message: "status: expected 200, got 500", line: 6, column: 7 }] };
 * const [f] = stepFailures([{ file: "a.yaml", name: "A", status: "failed", steps: [step] }] as never);
 * if (`${f.file}:${f.line}:${f.column} ${f.reason}` !== "a.yaml:6:7 status: expected 200, got 500") {
 *   throw new Error(JSON.stringify(f));
 * }
 * ```
 */
export function stepFailures(flows: readonly FlowResult[]): StepFailure[] {
  const out: StepFailure[] = [];
  for (const flow of flows) {
    for (const step of flow.steps) {
      if (step.status !== "failed" && step.status !== "error") continue;
      const checks = step.assertions.filter((a) => !a.passed && !a.skipped);
      const at = checks[0] ?? step;
      out.push({
        flow,
        step,
        checks,
        file: step.file ?? flow.file,
        line: at.line,
        column: at.column,
        reason: checks[0]?.message ?? step.message ?? step.status,
      });
    }
  }
  return out;
}

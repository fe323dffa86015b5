/**
 * The failed steps of a run as the reporters that point at failures see them
 * (the console recap, GitHub annotations and job summary, GitLab code
 * quality): each with the position to look at — the first failed check's,
 * else the step's, in the file the step is written in — and a one-line reason.
 *
 * @module
 */
import type { AssertionResult, FlowResult, StepResult } from "../model/result.ts";

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
  return Array.from(eachStepFailure(flows));
}

/**
 * {@linkcode stepFailures} one at a time: a reporter that keeps only what it
 * prints holds one flow's steps at a time (a spilled flow's steps are read
 * back each time they are asked for; see `spillSteps`).
 *
 * @example
 * ```ts
 * import { eachStepFailure } from "./failures.ts";
 * const step = { name: "get", status: "error", line: 3, column: 5, message: "Timed out.", assertions: [] };
 * const flows = [{ file: "a.yaml", name: "A", status: "error", steps: [step, { ...step, status: "passed" }] }];
 * const reasons = [...eachStepFailure(flows as never)].map((f) => f.reason);
 * if (reasons.join() !== "Timed out.") throw new Error(reasons.join());
 * ```
 */
export function* eachStepFailure(flows: readonly FlowResult[]): Generator<StepFailure> {
  for (const flow of flows) {
    for (const step of flow.steps) {
      if (step.status !== "failed" && step.status !== "error") continue;
      const checks = step.assertions.filter((a) => !a.passed && !a.skipped);
      const at = checks[0] ?? step;
      yield {
        flow,
        step,
        checks,
        file: checks[0]?.file ?? step.file ?? flow.file,
        line: at.line,
        column: at.column,
        reason: checks[0]?.message ?? step.message ?? step.status,
      };
    }
  }
}

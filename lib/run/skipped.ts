/**
 * Steps and flows that did not run, with the reason: a skipped step's
 * result, the steps an include reports as, and a flow never started.
 *
 * @module
 */
import type { Flow, Step } from "../model/flow.ts";
import type { FlowResult, StepResult } from "../model/result.ts";
import { emptyResult } from "./step_result.ts";
import { ownChecks } from "./own_checks.ts";
import type { Level } from "./walk.ts";

/**
 * A step the flow did not get to, with the reason.
 *
 * @example
 * ```ts
 * import { skipped } from "./skipped.ts";
 * // deno-lint-ignore no-explicit-any
 * const r = skipped({ name: "s", line: 1, column: 1 } as any, "Skipped because x.", 5);
 * if (r.status !== "skipped" || r.failure_kind !== "skipped" || r.start_ms !== 5) throw new Error();
 * ```
 */
export function skipped(step: Step, reason: string, start_ms = 0): StepResult {
  return {
    ...emptyResult(step, start_ms),
    status: "skipped",
    message: reason,
    failure_kind: "skipped",
  };
}

/**
 * The steps a step reports as: itself, or for an include the steps of the
 * included flow (nested includes expanded), named and placed for reporting.
 *
 * @example
 * ```ts
 * import { leaves } from "./skipped.ts";
 * const inner = { name: "b", include: undefined };
 * const outer = { name: "a", include: { file: "i.yaml", flow: { steps: [inner] } } };
 * // deno-lint-ignore no-explicit-any
 * const found = leaves(outer as any, { prefix: "" });
 * if (found.length !== 1 || found[0].prefix !== "a › " || found[0].file !== "i.yaml") throw new Error();
 * ```
 */
export function leaves(step: Step, level: Level): (Level & { step: Step })[] {
  if (!step.include) return [{ ...level, step }];
  const inner = { prefix: `${level.prefix}${step.name} › `, file: step.include.file };
  const steps = step.include.flow.steps.flatMap((s) => leaves(s, inner));
  // An include step with checks of its own reports them as itself, after its flow's steps.
  return ownChecks(step) ? [...steps, { ...level, step }] : steps;
}

/**
 * A flow that was never started: every step skipped with the reason.
 *
 * @example
 * ```ts
 * import { notRun } from "./skipped.ts";
 * // deno-lint-ignore no-explicit-any
 * const flow = { file: "f.yaml", name: "f", steps: [{ name: "s", line: 1, column: 1 }] } as any;
 * const r = notRun(flow, "Not run: setup failed.", "skipped");
 * if (r.status !== "skipped" || r.steps[0].message !== "Not run: setup failed.") throw new Error();
 * ```
 */
export function notRun(flow: Flow, reason: string, kind: StepResult["failure_kind"]): FlowResult {
  return {
    file: flow.file,
    name: flow.name,
    status: "skipped",
    started_at: new Date().toISOString(),
    duration_ms: 0,
    steps: flow.steps.flatMap((step) =>
      leaves(step, { prefix: "" }).map((leaf) => ({
        ...skipped(leaf.step, reason),
        name: `${leaf.prefix}${leaf.step.name}`,
        ...(leaf.file ? { file: leaf.file } : {}),
        failure_kind: kind,
      }))
    ),
  };
}

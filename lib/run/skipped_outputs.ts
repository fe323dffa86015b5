/**
 * A setup flow's outputs that read a step its own condition skipped. Such a
 * step took the branch its flow wrote for it (`if`), so its captures were
 * never meant to exist: an output made of them is not produced, and the
 * setup still passes. A flow reading that output then meets it unset, as
 * one a failed setup never produced (an expression error, or a step guarded
 * with `exists` skipped). Before, the output's expression error failed the
 * setup and every flow was skipped: a sign-in whose sign-up runs only for
 * the account the run makes (the converter's `.sign_in.yaml`, given the
 * user's own account) hands the account's id only when it signed up.
 *
 * So is an output (of a setup flow or an included one) that reads a capture
 * its step left unset by design: one declared `optional: true` that found
 * nothing, or one whose `when` did not hold with no `otherwise`. The step
 * said its answer may not hold the value; before, a sign-in that searched
 * the sign-up's answer for the account's id (the converter's, for a
 * document that shows no id) failed the setup, and every flow was skipped.
 *
 * @module
 */
import { expressionsOf } from "../expr/parse.ts";
import type { VarDef } from "../model/flow.ts";
import type { StepResult } from "../model/result.ts";

/**
 * `outputs` without those that read a capture of a step of `results` that
 * its condition skipped.
 *
 * @example
 * ```ts
 * import { withoutSkipped } from "./skipped_outputs.ts";
 * import { compileValue } from "../expr/parse.ts";
 * const outputs = [
 *   { name: "id", value: compileValue("${steps.sign_up.capture.id}") },
 *   { name: "token", value: compileValue("${steps.login.capture.token}") },
 * ];
 * const results = [
 *   { name: "sign_up", status: "skipped", failure_kind: "condition", duration_ms: 0 },
 *   { name: "login", status: "passed", duration_ms: 1 },
 * ] as never;
 * const kept = withoutSkipped(outputs, results);
 * if (kept.map((o) => o.name).join() !== "token") throw new Error(JSON.stringify(kept));
 * ```
 */
export function withoutSkipped(
  outputs: readonly VarDef[],
  results: readonly StepResult[],
): VarDef[] {
  const skipped = new Set(
    results.filter((r) => r.status === "skipped" && r.failure_kind === "condition")
      .map((r) => r.name),
  );
  if (skipped.size === 0) return [...outputs];
  return withoutReading(outputs, (step) => skipped.has(step));
}

/**
 * `outputs` without those that read a capture its step, having run, left
 * unset: `captured` (the flow's captures by step) holds the step but not
 * the key. A capture that must find its value fails its step when it does
 * not, so a step that passed without one declared it `optional`, or its
 * `when` did not hold, or (an include) its flow's output was not produced;
 * after a step that failed, the flow did not pass and an output that cannot
 * be evaluated is not produced anyway.
 *
 * @example
 * ```ts
 * import { withoutUnset } from "./skipped_outputs.ts";
 * import { compileValue } from "../expr/parse.ts";
 * const outputs = [
 *   { name: "id", value: compileValue("${steps.sign_up.capture.id}") },
 *   { name: "token", value: compileValue("${steps.sign_up.capture.token}") },
 * ];
 * const captured = new Map([["sign_up", new Map([["token", "t"]])]]);
 * const kept = withoutUnset(outputs, captured);
 * if (kept.map((o) => o.name).join() !== "token") throw new Error(JSON.stringify(kept));
 * ```
 */
export function withoutUnset(
  outputs: readonly VarDef[],
  captured: ReadonlyMap<string, ReadonlyMap<string, unknown>>,
): VarDef[] {
  return withoutReading(outputs, (step, key) => captured.get(step)?.has(key) === false);
}

/** `outputs` without those reading a step's capture that `unmade` says was not made. */
function withoutReading(
  outputs: readonly VarDef[],
  unmade: (step: string, key: string) => boolean,
): VarDef[] {
  return outputs.filter((o) =>
    ![...expressionsOf(o.value)].some(({ expr }) =>
      expr.ref.kind === "step" && unmade(expr.ref.step, expr.ref.key)
    )
  );
}

/**
 * An include step's own `assert` and `capture`: the response they read is
 * kept while the included flow runs (its last that arrived, or the named
 * step's with `response:`), checked once the included flow has passed, and
 * reported as the include step's result, at its own file and line.
 *
 * @module
 */
import type { Step } from "../model/flow.ts";
import type { StepResult } from "../model/result.ts";
import type { Attempt } from "./attempt.ts";
import { round } from "./context.ts";
import { failedBefore } from "./step_result.ts";
import { skipped } from "./skipped.ts";
import { checkKept } from "./step.ts";
import { ownChecks } from "./own_checks.ts";

export { ownChecks };
import type { Context } from "./context.ts";
import type { SecretInputs } from "../secrets/discover.ts";
import { type Level, type Live, record, type Walk } from "./walk.ts";

/** What checking an include step needs of the list of steps it is in (a `StepList` of steps.ts). */
interface At {
  scope: Live;
  ctx: Context;
  walk: Walk;
  inputs: SecretInputs;
  level: Level;
  keep?: Kept;
}

/**
 * The response an include step's checks will read, held while its flow runs:
 * each response offered replaces the one before (closing it), unless a
 * `target` step is named, whose response alone is taken.
 *
 * @example
 * ```ts
 * import { Kept } from "./include_checks.ts";
 * const closed: string[] = [];
 * const a = (id: string) => ({ request: {}, until: [], response: { close: () => closed.push(id) } });
 * const kept = new Kept("get");
 * // deno-lint-ignore no-explicit-any
 * if (kept.offer("post", a("1") as any) || !kept.offer("get", a("2") as any)) throw new Error();
 * kept.close();
 * if (closed.join() !== "2") throw new Error(closed.join());
 * ```
 */
export class Kept {
  #held?: Attempt;
  /** The named step (`response:`), or undefined for the last response. */
  readonly target?: string;

  constructor(target?: string) {
    this.target = target;
  }

  /** Takes `a` (of the included flow's step `step`) when it is the one wanted; whether it did. */
  offer(step: string, a: Attempt): boolean {
    if (!a.response || (this.target !== undefined && step !== this.target)) return false;
    if (this.#held !== a) this.#held?.response?.close();
    this.#held = a;
    return true;
  }

  /** The response held, if any arrived. */
  get held(): Attempt | undefined {
    return this.#held;
  }

  /** Gives up the held response without closing it (its new holder closes it). */
  release(): void {
    this.#held = undefined;
  }

  /** Frees the held response. */
  close(): void {
    this.#held?.response?.close();
    this.#held = undefined;
  }
}

/**
 * Whether the response of `step` (a step of the flow `at` runs) is wanted by
 * the include step that runs this flow.
 *
 * @example
 * ```ts
 * import { Kept, wanted } from "./include_checks.ts";
 * // deno-lint-ignore no-explicit-any
 * if (!wanted({ keep: new Kept() } as any, "a") || wanted({ keep: new Kept("b") } as any, "a")) throw new Error();
 * ```
 */
export function wanted(at: Pick<At, "keep">, step: string): boolean {
  return at.keep !== undefined && (at.keep.target === undefined || at.keep.target === step);
}

/**
 * Evaluates an include step's own checks and captures on the kept response
 * once its flow ended, records the include step's result, and returns why
 * the flow stops, if it does. When the included flow did not pass (`stop`),
 * nothing is evaluated: the step is reported skipped with that reason.
 *
 * @example
 * ```ts
 * import { checkInclude, Kept } from "./include_checks.ts";
 * import { Redactor } from "../secrets/mod.ts";
 * import type { StepResult } from "../model/result.ts";
 * const walk = { ref: { file: "f.yaml", name: "f" }, started: 0, results: [] as StepResult[], maskedAt: [] as number[] };
 * const at = { ctx: { reporter: {}, redactor: new Redactor() }, walk, level: { prefix: "" } };
 * const step = { name: "auth", line: 3, column: 5, include: { file: "login.yaml" } };
 * // deno-lint-ignore no-explicit-any
 * const stop = await checkInclude(step as any, new Kept(), undefined, at as any, 0);
 * if (stop !== 'step "auth" failed' || walk.results[0].status !== "failed") throw new Error(stop);
 * ```
 */
export async function checkInclude(
  step: Step,
  kept: Kept,
  stop: string | undefined,
  at: At,
  started: number,
): Promise<string | undefined> {
  const { ctx, walk, level } = at;
  if (stop !== undefined) {
    const r = skipped(step, `Not checked because ${stop.replace(/\.$/, "")}.`, since(walk));
    await record(r, level, walk, ctx);
    return stop;
  }
  const held = kept.held;
  const r = held
    ? checkKept({ ...input(step, at), captured: capturedOf(step, at) }, held, ctx, started)
    : noResponse(step, kept, walk.started, started);
  await record(r, level, walk, ctx);
  return r.status === "passed"
    ? undefined
    : `step "${level.prefix}${step.name}" ${r.status === "error" ? "had an error" : "failed"}`;
}

/** The include step as a step to check: its flow run, its scope (the including flow's). */
function input(step: Step, at: At) {
  const { walk, scope, inputs } = at;
  return { ref: walk.ref, step, scope, flowStarted: walk.started, inputs };
}

/** Where the include step's captures go: beside the included flow's outputs (set before). */
function capturedOf(step: Step, at: At): Map<string, unknown> {
  const into = at.scope.steps.get(step.name) ?? new Map<string, unknown>();
  at.scope.steps.set(step.name, into as Map<string, unknown>);
  return into as Map<string, unknown>;
}

/** The include step's result when no response arrived for its checks: a failure that says why. */
function noResponse(step: Step, kept: Kept, flowStarted: number, started: number): StepResult {
  const { file } = step.include!;
  const why = kept.target !== undefined
    ? `Step "${kept.target}" of ${file} sent no request (it was skipped)`
    : `The included flow ${file} sent no request (each of its steps was skipped)`;
  const timing = {
    start_ms: round(started - flowStarted),
    duration_ms: round(performance.now() - started),
  };
  return failedBefore(
    step,
    timing,
    "failed",
    "assertion",
    `${why}, so the checks of step "${step.name}" have no response to read.`,
  );
}

/** Milliseconds since the flow run started. */
function since(walk: Walk): number {
  return round(performance.now() - walk.started);
}

/**
 * A flow run's walk over its steps: the scope its steps fill in, the results
 * so far, where a list of steps sits (its name prefix and file when
 * included), and how each result is recorded: named, masked, reported.
 *
 * @module
 */
import type { Scope } from "../expr/template.ts";
import type { FlowRef } from "../model/events.ts";
import type { StepResult } from "../model/result.ts";
import type { Context } from "./context.ts";

/**
 * A scope whose step captures the runner fills in.
 *
 * @example
 * ```ts
 * import type { Live } from "./walk.ts";
 * const scope: Live = { env: () => undefined, vars: new Map(), steps: new Map(), runId: "r" };
 * scope.steps.set("login", new Map([["token", "t"]]));
 * ```
 */
export type Live = Scope & { steps: Map<string, Map<string, unknown>> };

/**
 * A flow run's results so far, and what each is reported against.
 *
 * @example
 * ```ts
 * import type { Walk } from "./walk.ts";
 * const walk: Walk = { ref: { file: "f.yaml", name: "f" }, started: performance.now(), results: [], maskedAt: [] };
 * if (walk.results.length !== 0) throw new Error();
 * ```
 */
export interface Walk {
  ref: FlowRef;
  started: number;
  results: StepResult[];
  /** How many secrets the redactor knew when each result was masked (-1: not masked yet). */
  maskedAt: number[];
}

/**
 * Where a list of steps sits: the names before its steps' own, its file when included.
 *
 * @example
 * ```ts
 * import type { Level } from "./walk.ts";
 * const level: Level = { prefix: "login › ", file: "login.yaml" };
 * if (!level.prefix.endsWith("› ")) throw new Error();
 * ```
 */
export interface Level {
  /** `"login › "` for the steps of an included flow. */
  prefix: string;
  /** The included file, for steps not written in the flow's own. */
  file?: string;
  /** Why the steps do not run (except cleanup), when something before them did not pass. */
  stop?: string;
}

/**
 * @example
 * ```ts
 * import { record } from "./walk.ts";
 * import { Redactor } from "../secrets/mod.ts";
 * import type { StepResult } from "../model/result.ts";
 * const walk = { ref: { file: "f.yaml", name: "f" }, started: 0, results: [] as StepResult[], maskedAt: [] as number[] };
 * const ctx = { reporter: {}, redactor: new Redactor() };
 * const step = { name: "get", status: "passed" };
 * // deno-lint-ignore no-explicit-any
 * await record(step as any, { prefix: "login › ", file: "login.yaml" }, walk, ctx as any);
 * // deno-lint-ignore no-explicit-any
 * if ((walk.results[0] as any).name !== "login › get" || walk.maskedAt[0] !== -1) throw new Error();
 * ```
 */
export async function record(r: StepResult, level: Level, walk: Walk, ctx: Context): Promise<void> {
  const named = level.prefix === "" && !level.file
    ? r
    : { ...r, name: `${level.prefix}${r.name}`, ...(level.file ? { file: level.file } : {}) };
  const { onStepEnd } = ctx.reporter;
  if (!onStepEnd || ctx.rawEvents) {
    // Nobody sees it before the flow ends: it is masked then, once, with every secret the flow
    // met (masked now, most were masked twice: a step before a token's first use met it later).
    // With raw events each output masks it as it writes it, so it is never masked here.
    walk.results.push(named);
    walk.maskedAt.push(-1);
    await onStepEnd?.call(ctx.reporter, walk.ref, named);
    return;
  }
  const result = ctx.redactor.redactValue(named);
  walk.results.push(result);
  walk.maskedAt.push(ctx.redactor.size);
  await onStepEnd.call(ctx.reporter, walk.ref, result);
}

/**
 * What the part of a run between its setup and teardown flows shares,
 * whichever way its flows are spread (one thread, `jobs` at a time, or
 * worker threads, `workers/`): the setup's outputs, the `--fail-fast` state,
 * the order flows are started in (`serial: true` flows last, alone), and
 * the result of a flow that is never started.
 *
 * @module
 */
import { reasonOf } from "../http/request_error.ts";
import { type DeferredFlow, type Flow, isDeferred } from "../model/flow.ts";
import type { FlowResult } from "../model/result.ts";
import type { Context } from "./context.ts";
import { parsed } from "./prepare.ts";
import { runRetried } from "./rerun.ts";
import { notRun } from "./skipped.ts";

/** What the setup flows gave the run: their results, their outputs, why they failed. */
export interface Setup {
  results: FlowResult[];
  /** Read-only for the rest of the run (`${setup.NAME}`). */
  outputs: Map<string, unknown>;
  /**
   * What the teardown reads: the outputs, and after a failure those the failed setup flow could
   * evaluate, with `"\0failed"` saying why the others are missing.
   */
  forTeardown: Map<string, unknown>;
  failed: string | undefined;
}

/** The `--fail-fast` state of a run: the first flow that did not pass, once one has not. */
export interface FailFast {
  failedFlow: string | undefined;
}

/**
 * The flows' places in the run, split in the order they start: first those
 * that may run beside others, then the `serial: true` ones, each alone.
 * A flow held as its bytes is never serial (`deferrable` keeps those parsed).
 *
 * @example
 * ```ts
 * import { splitSerial } from "./schedule.ts";
 * // deno-lint-ignore no-explicit-any
 * const flows: any[] = [{ name: "a", steps: [], serial: true }, { name: "b", steps: [] }];
 * const { parallel, serial } = splitSerial(flows);
 * if (parallel.join() !== "1" || serial.join() !== "0") throw new Error();
 * ```
 */
export function splitSerial(
  flows: readonly (Flow | DeferredFlow | undefined)[],
): { parallel: number[]; serial: number[] } {
  const parallel: number[] = [];
  const serial: number[] = [];
  flows.forEach((flow, index) => {
    (flow && !isDeferred(flow) && flow.serial ? serial : parallel).push(index);
  });
  return { parallel, serial };
}

/**
 * A flow's result when it is not started: a setup failed, the run was
 * interrupted, or `--fail-fast` stopped it; `undefined` when it starts.
 *
 * @example
 * ```ts
 * import { notStarted } from "./schedule.ts";
 * const flow = { file: "a.yaml", name: "a", vars: [], steps: [] };
 * const setup = { results: [], outputs: new Map(), forTeardown: new Map(), failed: undefined };
 * const stopped = notStarted(flow, setup, {}, "b.yaml");
 * if (!stopped?.steps || notStarted(flow, setup, {}, undefined) !== undefined) throw new Error();
 * ```
 */
export function notStarted(
  flow: Flow,
  setup: Pick<Setup, "failed">,
  ctx: Pick<Context, "signal">,
  failedFlow: string | undefined,
): FlowResult | undefined {
  if (setup.failed !== undefined) return notRun(flow, `Not run: ${setup.failed}.`, "skipped");
  if (ctx.signal?.aborted) {
    const reason = `Not run: the run was interrupted (${reasonOf(ctx.signal)}).`;
    return notRun(flow, reason, "interrupted");
  }
  if (failedFlow === undefined) return undefined;
  return notRun(
    flow,
    `Not run: --fail-fast stopped the run after ${failedFlow} failed.`,
    "skipped",
  );
}

/**
 * Runs a flow between setup and teardown, on whichever thread: re-run up to
 * its own `retries:` (else the run's), with the setup's outputs, and not
 * re-run once `--fail-fast` has stopped the run.
 *
 * @example
 * ```ts ignore
 * const result = await runStarted(flow, ctx, options.retries, setup.outputs, state);
 * ```
 */
export function runStarted(
  flow: Flow,
  ctx: Context,
  retries: number | undefined,
  setup: ReadonlyMap<string, unknown>,
  state: FailFast,
): Promise<FlowResult> {
  return runRetried(flow, ctx, {
    retries: flow.retries ?? retries ?? 0,
    setup,
    stop: () => state.failedFlow !== undefined,
  });
}

/**
 * Reports the flows at `left` as never started (after an interrupt or a
 * `--fail-fast` failure: `notStarted` says which), each dropped once
 * reported when the run releases its flows.
 *
 * @example
 * ```ts ignore
 * await reportNotStarted({ flows, results, setup, ctx, state, options }, [4, 5]);
 * ```
 */
export async function reportNotStarted(
  run: {
    flows: (Flow | DeferredFlow | undefined)[];
    results: FlowResult[];
    setup: Pick<Setup, "failed">;
    ctx: Context;
    state: FailFast;
    options: { release?: boolean };
  },
  left: readonly number[],
): Promise<void> {
  const { flows, results, setup, ctx, state, options } = run;
  for (const index of left) {
    const flow = await parsed(flows[index]!);
    if (options.release) flows[index] = undefined;
    // Never undefined: flows are left unstarted only after an interrupt or a failure.
    const skipped = notStarted(flow, setup, ctx, state.failedFlow)!;
    results[index] = skipped;
    await ctx.reporter.onFlowEnd?.(skipped);
  }
}

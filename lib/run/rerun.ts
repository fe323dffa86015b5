/**
 * Re-running a flow that did not pass (`--retries`, a flow's `retries:`):
 * each run is a fresh flow run from its first step (own vars, captures and
 * cookie jar; `${RUN_ID}` stays, `${RANDOM.*}` is drawn again), started
 * once the run before it ended, its cleanup steps (`always: true`)
 * included. A flow that passes on a re-run is flaky: `passed` with
 * `flaky: true`, and every earlier run in `attempts`. An interrupt, or
 * `--fail-fast` after another flow failed, stops the re-runs.
 *
 * @module
 */
import type { Flow } from "../model/flow.ts";
import type { FlowAttempt, FlowResult } from "../model/result.ts";
import { type Context, round } from "./context.ts";
import { runAttempt } from "./flow.ts";
import { noteToldSince, toldSince } from "../secrets/said_since.ts";

/** How one flow is run and re-run. */
export interface Rerun {
  /** How many times it may be re-run after the first run. */
  retries: number;
  /** The setup flows' outputs, for the run's flows. */
  setup?: ReadonlyMap<string, unknown>;
  /** A setup flow's outputs go here, from its last run (see `runOne`). */
  outputs?: Map<string, unknown>;
  /** Whether to stop re-running (`--fail-fast` after another flow failed). */
  stop?: () => boolean;
  /** A `--setup` or `--teardown` flow's role, which its result says (reports list them first and last). */
  role?: FlowResult["role"];
}

/**
 * Runs a flow, re-running it while it does not pass and re-runs are left,
 * and reports its end once, with every run. Never throws for failures in the
 * flow: they are results.
 *
 * @example
 * ```ts
 * import { loadFlow } from "../load/load_flow.ts";
 * import { makeContext } from "./make_context.ts";
 * import { runRetried } from "./rerun.ts";
 * let n = 0;
 * const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, () =>
 *   new Response(null, { status: ++n === 1 ? 503 : 200 }));
 * const { flow } = loadFlow(
 *   `name: f\nsteps:\n  - name: s\n    request: {url: "http://127.0.0.1:${server.addr.port}"}\n    assert: {status: 200}\n`,
 *   "f.yaml",
 * );
 * const ctx = makeContext({ runId: "r" });
 * const result = await runRetried(flow!, ctx, { retries: 2 });
 * ctx.deadlines?.close();
 * await server.shutdown();
 * if (result.status !== "passed" || !result.flaky || result.attempts?.length !== 1) throw new Error();
 * ```
 */
export async function runRetried(flow: Flow, ctx: Context, rerun: Rerun): Promise<FlowResult> {
  const { retries, setup } = rerun;
  const started = performance.now();
  const earlier: FlowAttempt[] = [];
  let result: FlowResult;
  let first: FlowResult | undefined;
  for (let attempt = 1;; attempt++) {
    // A setup flow's outputs are those of its last run.
    const outputs = rerun.outputs && attempt > 1 ? new Map<string, unknown>() : rerun.outputs;
    result = await runAttempt(flow, ctx, { setup, outputs, attempt });
    first ??= result;
    if (rerun.outputs && outputs !== rerun.outputs) {
      rerun.outputs.clear();
      for (const [k, v] of outputs!) rerun.outputs.set(k, v);
    }
    if (!again(result, attempt, retries, ctx, rerun)) break;
    earlier.push(attemptOf(result, attempt));
  }
  const final: FlowResult = earlier.length === 0 ? result : {
    ...result,
    // The flow's time is that of all its runs (shard timings read it); each run keeps its own.
    started_at: earlier[0].started_at,
    duration_ms: round(performance.now() - started),
    ...(result.status === "passed" ? { flaky: true } : {}),
    retries,
    attempts: earlier,
  };
  if (rerun.role) final.role = rerun.role;
  // The earlier runs' messages were made from the first run's steps on.
  const since = toldSince(first!);
  if (since !== undefined) noteToldSince(final, since);
  await ctx.reporter.onFlowEnd?.(final);
  return final;
}

/** Whether a run that just ended is followed by another. */
function again(
  result: FlowResult,
  attempt: number,
  retries: number,
  ctx: Context,
  rerun: Rerun,
): boolean {
  if (result.status !== "failed" && result.status !== "error") return false;
  if (attempt > retries || ctx.signal?.aborted) return false;
  return !(rerun.stop?.() ?? false);
}

/** A run that did not pass, as the flow's result keeps it. */
function attemptOf(result: FlowResult, attempt: number): FlowAttempt {
  return {
    attempt,
    status: result.status,
    started_at: result.started_at,
    duration_ms: result.duration_ms,
    steps: result.steps,
  };
}

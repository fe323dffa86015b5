/**
 * What `--repeat N` changes in `flowrun run` (cli/run/mod.ts): the flows
 * become N iterations each (lib/run/repeat.ts), the reporters see each
 * flow's first iteration and the first failures only and the runner keeps
 * no other result (lib/report/repeat_fold.ts), the iterations run on the
 * main thread `--concurrency` at a time, and the latency summary is printed
 * after the run. Without it (N = 1) nothing changes and nothing more is
 * loaded: the modules are imported when a run repeats.
 *
 * @module
 */
import type { DeferredFlow, Flow } from "../../lib/model/flow.ts";
import type { Reporter } from "../../lib/model/events.ts";
import type { FlowResult, RunResult } from "../../lib/model/result.ts";
import type { RunWorkers } from "../../lib/run/workers/plan.ts";
import { out } from "../output.ts";

/**
 * The fewest iterations for which a repeated run prints its progress, a
 * line after every tenth of them: a run that takes a while says how far it
 * is in a CI log, where the console lists only some iterations.
 *
 * @example
 * ```ts
 * import { PROGRESS_FROM } from "./repeat.ts";
 * if (PROGRESS_FROM !== 1000) throw new Error();
 * ```
 */
export const PROGRESS_FROM = 1000;

/**
 * A run as `--repeat` shapes it.
 *
 * @example
 * ```ts
 * import { repeatRun } from "./repeat.ts";
 * const run = await repeatRun({ repeat: 1 }, { loaded: { flows: [] } }, {}, () => {});
 * const workers = { count: 4, checkSetup: true };
 * if (run.runOptions(workers).workers !== workers) throw new Error("once is a plain run");
 * ```
 */
export interface RepeatRun {
  /** The reporter the runner calls (in front of the given one). */
  reporter: Reporter;
  /**
   * The run's `workers` and `unlisted` options: when repeating, no worker
   * threads (iterations share their flow's file, which a worker loads once
   * per data row) and the folded iterations' results dropped.
   */
  runOptions(workers: RunWorkers): {
    workers?: RunWorkers;
    unlisted?: (result: FlowResult) => boolean;
  };
  /** The run's result as reported, its latency summary printed. */
  finish(result: RunResult): Promise<RunResult>;
}

/**
 * The flows, `repeat` times each when repeating.
 *
 * @example
 * ```ts
 * import { repeatedFlows } from "./repeat.ts";
 * const flows = [{ file: "a.yaml", name: "a", vars: [], steps: [] }];
 * if ((await repeatedFlows(flows, 3)).length !== 3 || (await repeatedFlows(flows, 1))[0] !== flows[0]) {
 *   throw new Error();
 * }
 * ```
 */
export async function repeatedFlows(
  flows: (Flow | DeferredFlow)[],
  repeat: number,
): Promise<(Flow | DeferredFlow)[]> {
  if (repeat <= 1) return flows;
  return (await import("../../lib/run/repeat.ts")).repeatFlows(flows, repeat);
}

/**
 * The run's reporter and result with `--repeat` (`plan.repeat` > 1), or as
 * they are; `suite.loaded.flows` are the iterations (before the run empties
 * the list); `print` writes the progress and the latency summary.
 *
 * @example
 * ```ts
 * import { repeatRun } from "./repeat.ts";
 * let printed = "";
 * const suite = { loaded: { flows: [] } };
 * const run = await repeatRun({ repeat: 5, jobs: 2 }, suite, {}, (text) => void (printed += text));
 * if (run.runOptions({ count: 4, checkSetup: true }).workers !== undefined) throw new Error();
 * const none = { total: 0, passed: 0, failed: 0, error: 0, skipped: 0 };
 * const result = await run.finish({
 *   run_id: "r", runner_version: "0", started_at: "", duration_ms: 1, status: "passed",
 *   totals: { flows: none, steps: none, assertions: { total: 0, passed: 0, failed: 0 } }, flows: [],
 * });
 * if (result.latency?.repeat !== 5 || !printed.includes("--concurrency 2")) throw new Error(printed);
 * ```
 */
export async function repeatRun(
  plan: { repeat: number; jobs?: number },
  suite: { loaded: { flows: readonly (Flow | DeferredFlow)[] } },
  reporter: Reporter,
  print: (text: string) => void = out,
): Promise<RepeatRun> {
  if (plan.repeat <= 1) {
    return { reporter, runOptions: (workers) => ({ workers }), finish: (r) => Promise.resolve(r) };
  }
  const [{ foldRepeats }, { latencyText }] = await Promise.all([
    import("../../lib/report/repeat_fold.ts"),
    import("../../lib/report/latency_text.ts"),
  ]);
  const fold = foldRepeats(reporter, {
    repeat: plan.repeat,
    // As the runner reads --jobs when it is not given.
    concurrency: plan.jobs ?? navigator.hardwareConcurrency ?? 1,
    onRan: progress(iterationsOf(suite.loaded.flows), print),
  });
  return {
    reporter: fold.reporter,
    runOptions: () => ({ unlisted: fold.unlisted }),
    finish(ran) {
      const result = fold.fold(ran);
      print(latencyText(result.latency!));
      return Promise.resolve(result);
    },
  };
}

/** The flow runs of these flows: a data-driven flow runs once per row. */
function iterationsOf(flows: readonly (Flow | DeferredFlow)[]): number {
  let n = 0;
  for (const flow of flows) n += "rows" in flow && flow.rows ? flow.rows.length : 1;
  return n;
}

/**
 * A progress line after every tenth of `expected` iterations has run,
 * counted, not timed (the same lines on any machine); none below
 * {@linkcode PROGRESS_FROM}.
 */
function progress(
  expected: number,
  print: (text: string) => void,
): ((ran: { passed: number; failed: number }) => void) | undefined {
  if (expected < PROGRESS_FROM) return undefined;
  const step = Math.ceil(expected / 10);
  return ({ passed, failed }) => {
    const ran = passed + failed;
    if (ran % step === 0 || ran === expected) {
      print(`… ${ran}/${expected} iterations run: ${passed} passed, ${failed} failed\n`);
    }
  };
}

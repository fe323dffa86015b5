/**
 * The reports of a repeated run (`--repeat N`) stay the size of a run of
 * the flows once: each flow's first iteration is listed as a flow (passed
 * or not), and so are the first {@linkcode LISTED_FAILURES} iterations
 * that did not pass; every other iteration is folded into the latency
 * summary (`RunResult.latency`) and never reaches the reporters. An
 * iteration's events wait until it ends (its end decides whether it is
 * listed): at most `--concurrency` iterations' events at once. The totals
 * count the listed flows, as the JUnit file's testcases; `latency.iterations`
 * counts them all.
 *
 * @module
 */
import type { LatencySummary } from "../model/latency.ts";
import { type FlowRef, type Reporter, REPORTER_HOOKS } from "../model/events.ts";
import { type FlowResult, type RunResult, totalsOf } from "../model/result.ts";
import { iterationOf } from "../run/repeat.ts";
import { LatencyCollector } from "./latency.ts";

/**
 * How many iterations that did not pass the reports list besides each
 * flow's first: enough to see whether failures differ, few enough that a
 * run failing 10,000 times writes a readable JUnit file.
 *
 * @example
 * ```ts
 * import { LISTED_FAILURES } from "./repeat_fold.ts";
 * if (LISTED_FAILURES !== 20) throw new Error();
 * ```
 */
export const LISTED_FAILURES = 20;

/**
 * A repeated run's reporter and the fold of its result.
 *
 * @example
 * ```ts
 * import { foldRepeats } from "./repeat_fold.ts";
 * const seen: string[] = [];
 * const fold = foldRepeats({ onFlowEnd: (f) => void seen.push(f.name) }, { repeat: 3, concurrency: 1 });
 * for (const [i, status] of [[1, "passed"], [2, "passed"], [3, "failed"]] as const) {
 *   await fold.reporter.onFlowEnd?.({ file: "a.yaml", name: `a [${i}/3]`, status, started_at: "", duration_ms: 1, steps: [] });
 * }
 * if (seen.join() !== "a [1/3],a [3/3]") throw new Error(seen.join());
 * ```
 */
export interface RepeatFold {
  /** Put it in front of every reporter of the run (the console too). */
  reporter: Reporter;
  /** The run's result as the reporters get it: the listed flows, their totals, `latency`. */
  fold(result: RunResult): RunResult;
  /** For the runner (`RunOptions.unlisted`): whether a flow run is folded, not listed. */
  unlisted(result: FlowResult): boolean;
}

type Event = [hook: string, args: unknown[]];

/**
 * How a run repeats: `repeat` iterations of each flow, at most
 * `concurrency` at once; `onRan` is told the counts after each iteration
 * that ran (passed or failed), as it ends.
 *
 * @example
 * ```ts
 * import type { FoldOptions } from "./repeat_fold.ts";
 * const options: FoldOptions = { repeat: 100, concurrency: 4, onRan: ({ passed }) => void passed };
 * if (options.repeat !== 100) throw new Error();
 * ```
 */
export interface FoldOptions {
  repeat: number;
  concurrency: number;
  onRan?: (ran: { passed: number; failed: number }) => void;
}

/**
 * Folds the iterations of a run with `repeat` iterations of each flow, at
 * most `concurrency` at once, before `inner` sees them.
 *
 * @example
 * ```ts
 * import { foldRepeats } from "./repeat_fold.ts";
 * const fold = foldRepeats({}, { repeat: 2, concurrency: 1 });
 * const none = { total: 0, passed: 0, failed: 0, error: 0, skipped: 0 };
 * const result = fold.fold({
 *   run_id: "r", runner_version: "0", started_at: "", duration_ms: 1000, status: "passed",
 *   totals: { flows: none, steps: none, assertions: { total: 0, passed: 0, failed: 0 } }, flows: [],
 * });
 * if (result.latency?.repeat !== 2 || result.latency.overall.requests !== 0) throw new Error();
 * ```
 */
export function foldRepeats(inner: Reporter, options: FoldOptions): RepeatFold {
  const fold = new Fold(inner, options);
  return {
    reporter: fold.reporter(),
    fold: (result) => fold.fold(result),
    unlisted: (flow) => !fold.isListed(flow),
  };
}

/** The state of one repeated run's fold. */
class Fold {
  readonly #inner: Reporter;
  readonly #repeat: number;
  readonly #concurrency: number;
  readonly #onRan: FoldOptions["onRan"];
  readonly #collector: LatencyCollector;
  /** The events of the iterations running now whose end decides whether they are listed. */
  readonly #waiting = new Map<string, Event[]>();
  /** Listed flow runs: each flow's first iteration, the first failures, setup and teardown. */
  readonly #listed = new Set<FlowResult>();
  readonly #counts = { total: 0, passed: 0, failed: 0, not_run: 0, listed: 0 };
  #failuresListed = 0;
  readonly #decided = new WeakMap<FlowResult, boolean>();
  readonly #folded = new WeakMap<RunResult, RunResult>();

  constructor(inner: Reporter, { repeat, concurrency, onRan }: FoldOptions) {
    this.#inner = inner;
    this.#onRan = onRan;
    this.#repeat = repeat;
    this.#concurrency = concurrency;
    this.#collector = new LatencyCollector((ref) => iterationOf(ref.name, repeat)?.name);
  }

  /**
   * Whether a flow run is listed, decided once, by whichever asks first: the
   * runner (`unlisted`, as it drops the result) or the reporter's end
   * (queued, it may come later; the first flow's comes earlier).
   */
  isListed(flow: FlowResult): boolean {
    const known = this.#decided.get(flow);
    if (known !== undefined) return known;
    const iteration = iterationOf(flow.name, this.#repeat);
    if (iteration && count(this.#counts, flow)) this.#onRan?.(this.#counts);
    const failed = flow.status === "failed" || flow.status === "error";
    const first = !iteration || iteration.i === 1;
    const list = first || (failed && this.#failuresListed < LISTED_FAILURES);
    if (list && !first) this.#failuresListed++;
    if (list && iteration) this.#counts.listed++;
    if (list) this.#listed.add(flow);
    this.#decided.set(flow, list);
    return list;
  }

  reporter(): Reporter {
    const inner = this.#inner;
    const reporter: Reporter = {
      // Each flow file once, in order: the list would name a file once per iteration.
      onRunStart: (start) => inner.onRunStart?.({ ...start, files: [...new Set(start.files)] }),
      onFlowEnd: (flow) => this.#flowEnd(flow),
      onRunEnd: (result) => inner.onRunEnd?.(this.fold(result)),
    };
    const collect = this.#collector.reporter as Record<string, (...a: unknown[]) => unknown>;
    for (const hook of REPORTER_HOOKS) {
      if (hook in reporter) continue;
      const own = collect[hook];
      const theirs = typeof inner[hook] === "function";
      if (!own && !theirs) continue;
      (reporter as Record<string, unknown>)[hook] = (ref: FlowRef, ...rest: unknown[]) => {
        own?.(ref, ...rest);
        if (theirs) return this.#event(hook, [ref, ...rest]);
      };
    }
    return reporter;
  }

  /** The run's result as reported: the listed flows, their totals, the latency summary. */
  fold(result: RunResult): RunResult {
    const known = this.#folded.get(result);
    if (known) return known;
    const flows = result.flows.filter((f) =>
      this.#listed.has(f) || !iterationOf(f.name, this.#repeat)
    );
    const { overall, steps } = this.#collector.stats();
    const seconds = result.duration_ms / 1000;
    const latency: LatencySummary = {
      repeat: this.#repeat,
      concurrency: this.#concurrency,
      percentiles: "exact",
      iterations: { ...this.#counts },
      requests_per_second: seconds > 0 ? Math.round(overall.requests / seconds * 100) / 100 : 0,
      overall,
      steps,
    };
    const made = { ...result, totals: totalsOf(flows), latency, flows };
    this.#folded.set(result, made);
    return made;
  }

  /** A flow run's event: straight through for a first iteration, else kept until it ends. */
  #event(hook: string, args: [FlowRef, ...unknown[]]): unknown {
    const name = args[0].name;
    if ((iterationOf(name, this.#repeat)?.i ?? 1) === 1) return this.#call(hook, args);
    let events = this.#waiting.get(name);
    if (!events) this.#waiting.set(name, events = []);
    events.push([hook, args]);
  }

  async #flowEnd(flow: FlowResult): Promise<void> {
    const events = this.#waiting.get(flow.name) ?? [];
    this.#waiting.delete(flow.name);
    if (!this.isListed(flow)) {
      // Folded: nothing of it is read again, so the run keeps (and spills to disk) none of its steps.
      flow.steps = [];
      delete flow.attempts;
      return;
    }
    for (const [hook, args] of events) await this.#call(hook, args);
    await this.#inner.onFlowEnd?.(flow);
  }

  #call(hook: string, args: unknown[]): unknown {
    const fn = this.#inner[hook as keyof Reporter] as ((...a: unknown[]) => unknown) | undefined;
    return fn?.apply(this.#inner, args);
  }
}

/** Counts an iteration's end: passed, failed (or error), or not run; whether it ran. */
function count(
  counts: { total: number; passed: number; failed: number; not_run: number },
  flow: FlowResult,
): boolean {
  counts.total++;
  if (flow.status === "passed") counts.passed++;
  else if (flow.status === "skipped") counts.not_run++;
  else counts.failed++;
  return flow.status !== "skipped";
}

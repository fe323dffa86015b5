/**
 * How many worker threads a run's flows are spread over (`--workers`), and
 * each one's share of `--jobs`. Imported by every run; the pool itself
 * (`pool.ts`) only by runs that use workers.
 *
 * @module
 */

/**
 * How a run may use worker threads.
 *
 * @example
 * ```ts
 * import type { RunWorkers } from "./plan.ts";
 * const options: RunWorkers = { count: "auto", checkSetup: true };
 * if (options.count !== "auto") throw new Error();
 * ```
 */
export interface RunWorkers {
  /**
   * Threads that run flows, the main thread one of them (it starts one
   * worker fewer): a number, or `"auto"` for one per core when the run has
   * enough flows to pay for them ({@linkcode MIN_FLOWS_PER_WORKER}). 1 runs
   * every flow on the main thread alone.
   */
  count: number | "auto";
  /** `--tag`: a worker selects a flow's steps by it again when it loads the flow. */
  tags?: string;
  /** `--allow-commands`: flows may run programs for a bearer token (see `LoadOptions`). */
  allowCommands?: boolean;
  /**
   * Whether the flows were loaded with the setup flows' outputs known
   * (`setupFiles` given to `loadFlows`, as the CLI always does), so that
   * `${setup.NAME}` was checked against them.
   */
  checkSetup: boolean;
  /**
   * The bytes each flow file was checked from (the CLI's loaded bytes): a
   * worker that loads a flow again (one JSON cannot hold) loads it from
   * them, not from the disk, where the file may have changed since.
   */
  source?: (file: string) => Uint8Array | undefined;
}

/**
 * The flows each worker must have for `"auto"` to start it. A worker costs a
 * thread, a V8 isolate and loading the runner's modules again (about 60 ms
 * of CPU, measured on Deno 2.9); a flow of five requests costs about 2.5 ms,
 * so below this many flows a worker does not earn back its start.
 *
 * @example
 * ```ts
 * import { MIN_FLOWS_PER_WORKER } from "./plan.ts";
 * if (MIN_FLOWS_PER_WORKER !== 50) throw new Error();
 * ```
 */
export const MIN_FLOWS_PER_WORKER = 50;

/**
 * The threads that run a run's flows, the main thread included (it starts
 * one worker fewer): 0 when they all stay on the main thread alone. Never
 * more than `jobs` (a thread runs at least one flow at a time) nor than the
 * flows; with `"auto"`, the cores, and only as many as have
 * {@linkcode MIN_FLOWS_PER_WORKER} flows each.
 *
 * @example
 * ```ts
 * import { workerCount } from "./plan.ts";
 * if (workerCount({ count: "auto", cores: 8, jobs: 16, flows: 2000 }) !== 8) throw new Error();
 * if (workerCount({ count: "auto", cores: 8, jobs: 16, flows: 120 }) !== 2) throw new Error();
 * if (workerCount({ count: "auto", cores: 8, jobs: 16, flows: 60 }) !== 0) throw new Error();
 * if (workerCount({ count: 4, cores: 2, jobs: 3, flows: 10 }) !== 3) throw new Error();
 * if (workerCount({ count: 1, cores: 8, jobs: 8, flows: 2000 }) !== 0) throw new Error();
 * ```
 */
export function workerCount(
  { count, cores, jobs, flows }: {
    count: number | "auto";
    cores: number;
    jobs: number;
    flows: number;
  },
): number {
  const wanted = count === "auto"
    ? Math.min(cores, Math.floor(flows / MIN_FLOWS_PER_WORKER))
    : Math.min(count, flows);
  const n = Math.min(wanted, jobs);
  return n >= 2 ? n : 0;
}

/**
 * Each worker's share of `jobs` flows at once, as even as can be.
 *
 * @example
 * ```ts
 * import { slotsOf } from "./plan.ts";
 * if (slotsOf(8, 3).join() !== "3,3,2") throw new Error();
 * ```
 */
export function slotsOf(jobs: number, workers: number): number[] {
  return Array.from(
    { length: workers },
    (_, i) => Math.floor(jobs / workers) + (i < jobs % workers ? 1 : 0),
  );
}

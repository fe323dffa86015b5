/**
 * `--workers` as the runner takes it: how many threads, and what a worker
 * needs to load each flow it runs again as `loadSuite` loaded it.
 *
 * @module
 */
import type { RunWorkers } from "../../lib/run/workers/plan.ts";
import type { RunPlan } from "./options.ts";

/**
 * The run's worker options, from its plan.
 *
 * @example
 * ```ts
 * import { workerOptionsOf } from "./workers_option.ts";
 * import { runPlan } from "./options.ts";
 * const host = { env: () => undefined, isTerminal: () => false, secret: () => {} };
 * const plan = runPlan(["flows/", "--workers", "4", "--tag", "smoke"], host)!;
 * const options = workerOptionsOf(plan);
 * if (options.count !== 4 || options.tags !== "smoke" || !options.checkSetup) throw new Error();
 * ```
 */
export function workerOptionsOf(
  plan: Pick<RunPlan, "workers" | "tags" | "allowCommands">,
  bytes?: ReadonlyMap<string, Uint8Array>,
): RunWorkers {
  return {
    count: plan.workers,
    tags: plan.tags,
    allowCommands: plan.allowCommands,
    // loadSuite always gives the setup files (maybe none): ${setup.NAME} was checked.
    checkSetup: true,
    // A worker loads a flow again from the bytes that were checked, as a held flow is.
    ...(bytes ? { source: (file: string) => bytes.get(file) } : {}),
  };
}

/**
 * `flowrun run`'s options for a quick smoke load on one machine: `--repeat
 * N` (run each selected flow N times) and `--concurrency C` (at most C flow
 * runs at once). `--concurrency` is `--jobs` under the name load tools use:
 * the same scheduler runs the iterations, so there is one limit, not two.
 *
 * @module
 */
import { UsageError } from "../../lib/model/errors.ts";
import { positiveInteger } from "../option_values.ts";

/**
 * The most iterations `--repeat` takes: a smoke load, not a soak (the
 * latency summary keeps 16 bytes a request, see `lib/report/latency.ts`).
 *
 * @example
 * ```ts
 * import { MAX_REPEAT } from "./repeat_option.ts";
 * if (MAX_REPEAT !== 1_000_000) throw new Error();
 * ```
 */
export const MAX_REPEAT = 1_000_000;

/**
 * The options, as `parse` in `args.ts` takes them.
 *
 * @example
 * ```ts
 * import { REPEAT_OPTIONS } from "./repeat_option.ts";
 * if (REPEAT_OPTIONS.repeat.type !== "string" || REPEAT_OPTIONS.concurrency.type !== "string") {
 *   throw new Error();
 * }
 * ```
 */
export const REPEAT_OPTIONS = {
  repeat: { type: "string" },
  concurrency: { type: "string" },
} as const;

/**
 * `--repeat` and `--concurrency` checked: `repeat` is 1 when not given (a
 * run as without it), `jobs` is `--concurrency` or else `--jobs` as given.
 *
 * @example
 * ```ts
 * import { repeatOf } from "./repeat_option.ts";
 * const plan = repeatOf({ repeat: "100", concurrency: "8" });
 * if (plan.repeat !== 100 || plan.jobs !== 8) throw new Error();
 * if (repeatOf({ jobs: "3" }).repeat !== 1 || repeatOf({ jobs: "3" }).jobs !== 3) throw new Error();
 * let refused = false;
 * try { repeatOf({ repeat: "0" }); } catch { refused = true; }
 * if (!refused) throw new Error();
 * ```
 */
export function repeatOf(
  values: { repeat?: string; concurrency?: string; jobs?: string },
): { repeat: number; jobs?: number } {
  const repeat = positiveInteger(values.repeat, "repeat", "a positive number of runs", MAX_REPEAT);
  const concurrency = positiveInteger(
    values.concurrency,
    "concurrency",
    "a positive number of flow runs at once",
    10_000,
  );
  const jobs = positiveInteger(values.jobs, "jobs", "a positive number of flows", 10_000);
  if (concurrency !== undefined && jobs !== undefined && concurrency !== jobs) {
    throw new UsageError(
      "bad-concurrency",
      `--concurrency "${values.concurrency}" and --jobs "${values.jobs}" disagree; they are one option.`,
      "Give one of them: --concurrency is --jobs under the name load tools use.",
    );
  }
  return { repeat: repeat ?? 1, jobs: concurrency ?? jobs };
}

/**
 * `flowrun run`'s options for flaky flows: `--retries N` (re-run a flow that
 * did not pass), `--fail-on-flaky` (a flow that passed only on a re-run
 * fails the run) and `--history FILE` (earlier JSON reports, for each
 * flow's streak). Checked before anything is read; the history files are
 * read by `history.ts`.
 *
 * @module
 */
import { UsageError } from "../../lib/model/errors.ts";
import { MAX_FLOW_RETRIES, MAX_HISTORY_REPORTS } from "../../lib/model/limits.ts";

/**
 * The options, as `parse` in `args.ts` takes them.
 *
 * @example
 * ```ts
 * import { RERUN_OPTIONS } from "./rerun_options.ts";
 * if (RERUN_OPTIONS.retries.type !== "string" || !RERUN_OPTIONS.history.multiple) throw new Error();
 * ```
 */
export const RERUN_OPTIONS = {
  retries: { type: "string" },
  "fail-on-flaky": { type: "boolean" },
  history: { type: "string", multiple: true },
} as const;

/**
 * What the plan holds of them.
 *
 * @example
 * ```ts
 * import type { RerunPlan } from "./rerun_options.ts";
 * const plan: RerunPlan = { retries: 2, failOnFlaky: false };
 * if (plan.retries !== 2) throw new Error();
 * ```
 */
export interface RerunPlan {
  /** `--retries`: how many times a flow that did not pass is re-run (absent: 0). */
  retries?: number;
  /** `--fail-on-flaky`. */
  failOnFlaky: boolean;
  /** `--history` reports, in the order given. */
  history?: string[];
}

/**
 * Checks `--retries`, `--fail-on-flaky` and `--history`.
 *
 * @example
 * ```ts
 * import { rerunOf } from "./rerun_options.ts";
 * const plan = rerunOf({ retries: "2", history: ["a.json"] });
 * if (plan.retries !== 2 || plan.history?.[0] !== "a.json" || plan.failOnFlaky) throw new Error();
 * let refused = false;
 * try { rerunOf({ retries: "11" }); } catch { refused = true; }
 * if (!refused) throw new Error();
 * ```
 */
export function rerunOf(
  values: { retries?: string; "fail-on-flaky"?: boolean; history?: string[] },
): RerunPlan {
  const given = values.retries;
  const retries = given === undefined ? undefined : Number(given);
  if (
    given !== undefined &&
    (!/^\s*\d+\s*$/.test(given) || !(retries! >= 0 && retries! <= MAX_FLOW_RETRIES))
  ) {
    throw new UsageError(
      "bad-retries",
      `--retries "${given}" is not a number of re-runs from 0 to ${MAX_FLOW_RETRIES}.`,
      "Write how many times a flow that did not pass is run again, e.g. --retries 2; " +
        "a flow that fails more often is broken, not flaky.",
    );
  }
  const history = values.history?.length ? values.history : undefined;
  if (history && history.length > MAX_HISTORY_REPORTS) {
    throw new UsageError(
      "bad-history",
      `--history is given ${history.length} times; at most ${MAX_HISTORY_REPORTS} reports are read.`,
      `Give the JSON reports of the last ${MAX_HISTORY_REPORTS} runs or fewer.`,
    );
  }
  return {
    ...(retries !== undefined ? { retries } : {}),
    failOnFlaky: values["fail-on-flaky"] === true,
    ...(history ? { history } : {}),
  };
}

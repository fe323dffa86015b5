/**
 * The latency summary of a run with `--repeat` (a quick smoke load): how
 * many requests were sent, how long they took (exact percentiles), why
 * steps failed, and how many iterations the reports list. The JSON report
 * holds it as `latency`; `lib/report/latency.ts` makes it.
 *
 * @module
 */

/**
 * Why a step run did not pass, as the summary counts it: `status` (its
 * status check failed), `assertion` (another check failed), `network` (no
 * response: refused, reset, closed), `timeout` (no complete response within
 * `--timeout`), `capture`, `until` (a poll never held), `expression` (a
 * value could not be resolved), `other`.
 *
 * @example
 * ```ts
 * import { ERROR_KINDS } from "./latency.ts";
 * if (ERROR_KINDS[0] !== "status" || ERROR_KINDS.at(-1) !== "other") throw new Error();
 * ```
 */
export const ERROR_KINDS: readonly ErrorKind[] = [
  "status",
  "assertion",
  "network",
  "timeout",
  "capture",
  "until",
  "expression",
  "other",
];

/**
 * One kind of {@linkcode ERROR_KINDS}.
 *
 * @example
 * ```ts
 * import type { ErrorKind } from "./latency.ts";
 * const kind: ErrorKind = "timeout";
 * if (kind !== "timeout") throw new Error();
 * ```
 */
export type ErrorKind =
  | "status"
  | "assertion"
  | "network"
  | "timeout"
  | "capture"
  | "until"
  | "expression"
  | "other";

/**
 * Requests and their latency in milliseconds: nearest-rank percentiles of
 * every request's duration (to the whole response read, or to the failure);
 * all 0 when no request was sent.
 *
 * @example
 * ```ts
 * import type { LatencyStats } from "./latency.ts";
 * const stats: LatencyStats = { requests: 2, p50_ms: 3, p95_ms: 9, p99_ms: 9, max_ms: 9, errors: {} };
 * if (stats.p95_ms > stats.max_ms) throw new Error();
 * ```
 */
export interface LatencyStats {
  /** Requests sent (each attempt of a polled or re-tried step counts). */
  requests: number;
  /** The median duration. */
  p50_ms: number;
  /** The 95th percentile. */
  p95_ms: number;
  /** The 99th percentile. */
  p99_ms: number;
  /** The longest request. */
  max_ms: number;
  /** Step runs that did not pass, by why; a kind none had is left out. */
  errors: Partial<Record<ErrorKind, number>>;
}

/**
 * A step's line of the summary: the step of a flow, over every iteration.
 *
 * @example
 * ```ts
 * import type { StepLatency } from "./latency.ts";
 * const line: StepLatency = {
 *   file: "a.yaml", flow: "a", step: "get", requests: 1, p50_ms: 1, p95_ms: 1, p99_ms: 1, max_ms: 1, errors: {},
 * };
 * if (line.step !== "get") throw new Error();
 * ```
 */
export interface StepLatency extends LatencyStats {
  /** The flow file. */
  file: string;
  /** The flow's name (without the iteration). */
  flow: string;
  /** The step's name. */
  step: string;
}

/**
 * The summary of a repeated run.
 *
 * @example
 * ```ts
 * import type { LatencySummary } from "./latency.ts";
 * const none = { requests: 0, p50_ms: 0, p95_ms: 0, p99_ms: 0, max_ms: 0, errors: {} };
 * const summary: LatencySummary = {
 *   repeat: 10, concurrency: 2, percentiles: "exact",
 *   iterations: { total: 10, passed: 10, failed: 0, not_run: 0, listed: 1 },
 *   requests_per_second: 0, overall: none, steps: [],
 * };
 * if (summary.iterations.listed !== 1) throw new Error();
 * ```
 */
export interface LatencySummary {
  /** `--repeat`: how many times each selected flow was to run. */
  repeat: number;
  /** `--concurrency` (`--jobs`): flow runs at once, at most. */
  concurrency: number;
  /** How the percentiles are computed: every duration kept and sorted. */
  percentiles: "exact";
  /**
   * Flow runs of the iterations: `passed`, `failed` (failed or error),
   * `not_run` (an interrupt or `--fail-fast` stopped the run first), and
   * `listed`: those the reports list as flows (each flow's first iteration
   * and the first failures; the others are folded into this summary).
   */
  iterations: { total: number; passed: number; failed: number; not_run: number; listed: number };
  /** Requests sent a second, over the run's wall time. */
  requests_per_second: number;
  /** Every request of every iteration. */
  overall: LatencyStats;
  /** Each step of each flow, in the order first seen. */
  steps: StepLatency[];
}

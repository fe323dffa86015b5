/**
 * The run result: what a run produced, step by step. This is the object that
 * the JSON report serialises (see `schema/report.schema.json`), so its field
 * names are the report's field names (snake_case) and every field is plain
 * JSON data. Reporters read it; nothing in it refers back to the loaded flow.
 *
 * @module
 */
import type { OpenApiCoverage } from "./coverage.ts";
import type { LatencySummary } from "./latency.ts";

/**
 * The version of the report format, written as `schema_version`. Adding
 * fields keeps it; removing or renaming a field, or changing its meaning,
 * increments it. It lives with the result it versions, so readers of
 * reports (`merge`) need not import a writer.
 *
 * @example
 * ```ts
 * import { REPORT_SCHEMA_VERSION } from "./result.ts";
 * if (REPORT_SCHEMA_VERSION !== 1) throw new Error();
 * ```
 */
export const REPORT_SCHEMA_VERSION = 1;

/** How a step, a flow or a run ended. */
export type Status = "passed" | "failed" | "error" | "skipped";

/** A position in a flow file, 1-based. */
export interface Position {
  line: number;
  column: number;
}

/**
 * The outcome of one check: an assertion, a status check, or an unmet
 * `loop.until` condition. Failures are data, never exceptions.
 */
export interface AssertionResult {
  /** Where the check came from: `assert` or `until` (a loop condition). */
  phase: "assert" | "until";
  /** The JSONPath as written, or `status` for a status check. */
  path: string;
  /** The operator: `equals`, `anyOf`, `exists`, `type`, … */
  operator: string;
  /** The expected value after expressions were resolved. */
  expected: unknown;
  /** The value found; `null` with `found: false` when the path matched nothing. */
  actual: unknown;
  /** Whether the path matched anything. */
  found: boolean;
  /** Whether the check held (a skipped group counts as held). */
  passed: boolean;
  /**
   * Set on the one result that stands for a group of checks not evaluated
   * because its `if` did not hold (or, for its `else` checks, held): `path`,
   * `operator`, `expected` and `actual` are then those of the condition.
   */
  skipped?: boolean;
  /** One line that reads well in a CI log (a named check's starts with its name). */
  message: string;
  /** The check's `name`, when the flow gave it one. */
  name?: string;
  /** The check file the check is written in (`checks: ../checks/article.yaml`); `line` and `column` are in it. */
  file?: string;
  /** Where the operator is written in the flow file. */
  line: number;
  /** Column of the operator in the flow file. */
  column: number;
}

/** A capture that found nothing in the response. */
export interface CaptureFailure {
  /** The capture's name. */
  name: string;
  /** Why it found nothing, e.g. `$.json.id matched nothing`. */
  message: string;
  /** Where the capture is written in the flow file. */
  line: number;
  /** Column of the capture's name. */
  column: number;
}

/** The outcome of one step. */
export interface StepResult {
  /** The step's name. */
  name: string;
  /** How the step ended. */
  status: Status;
  /** Wall time of the step including every poll attempt and pause. */
  duration_ms: number;
  /**
   * When the step started, in milliseconds after its flow started (for a
   * timeline); optional because reports written before it existed lack it.
   */
  start_ms?: number;
  /** For polled steps: when each attempt started, in milliseconds after the step started. */
  attempt_starts_ms?: number[];
  /** For polled steps: each attempt's response status, `null` when none arrived. */
  attempt_statuses?: (number | null)[];
  /** Requests sent (1 without a loop, 0 when skipped or never sent). */
  attempts: number;
  /** Where the step is declared in the flow file. */
  line: number;
  /** Column of the step in the flow file. */
  column: number;
  /**
   * The file the step is written in, when it is not the flow's own: a step of
   * an included flow (`include:`), whose `line` and `column` (and those of its
   * checks and captures) are in that file.
   */
  file?: string;
  /** The last request sent, once its URL was resolved. */
  request: {
    /** The HTTP method. */
    method: string;
    /** The resolved URL. */
    url: string;
    /** Set on steps that did not pass: the headers sent (secrets are masked in every artifact). */
    headers?: Record<string, string>;
    /** Set on steps that did not pass and sent a body: the body, cut at 64 KiB (2 KiB after the run's first 100 such steps). */
    body?: string;
    /**
     * Set on steps that did not pass: the request as a `curl` command, secrets
     * the run read from a variable written as `"$NAME"`, others masked.
     */
    curl?: string;
  } | null;
  /** The last response received; `null` when none arrived. */
  response: {
    /** The status code. */
    status: number;
    /** Set on steps that did not pass: the start of the body, for humans. */
    body_excerpt?: string;
    /** The content type without parameters. */
    content_type?: string;
    /** Set on steps that did not pass: the response headers, lower-case names. */
    headers?: Record<string, string>;
    /** Set on steps that did not pass: the body, cut at 64 KiB (2 KiB after the run's first 100 such steps). */
    body?: string;
    /** How many characters of the body were cut off, when it was longer than what was kept. */
    body_truncated?: number;
  } | null;
  /** Every check of the step, `until` conditions first. */
  assertions: AssertionResult[];
  /** Names of the values this step captured, in declaration order. */
  captures: string[];
  /**
   * The captures that found nothing, each with its reason and where it is
   * written in the flow file (present when the step failed for them).
   */
  capture_failures?: CaptureFailure[];
  /**
   * The W3C trace context of the last request, when it carried a
   * `traceparent` (sent by the flow, or added by `--trace`).
   */
  trace?: { trace_id: string; span_id: string };
  /** Why the step did not pass (absent when it passed). */
  message?: string;
  /**
   * How its credentials were sent when not as its auth block says: a bearer
   * token with the word the server's `WWW-Authenticate` asked for.
   */
  note?: string;
  /**
   * What kind of problem stopped the step: `assertion` (incl. status),
   * `capture`, `until` (poll never satisfied), `request` (network, timeout),
   * `expression` (a value could not be resolved), `skipped` (an earlier step
   * did not pass, or `--fail-fast` stopped the run), `interrupted` (the run
   * was interrupted before the step finished), `invalid` (a problem of the
   * flow file: nothing was run; see {@linkcode RunResult.problems}),
   * `condition` (skipped because its `if` did not hold; the flow goes on).
   */
  failure_kind?:
    | "assertion"
    | "capture"
    | "until"
    | "request"
    | "expression"
    | "skipped"
    | "interrupted"
    | "invalid"
    | "condition";
}

/** The outcome of one flow file. */
export interface FlowResult {
  /** The flow file's path relative to the working directory, `/`-separated. */
  file: string;
  /** The flow's name. */
  name: string;
  /** How the flow ended: the status of the step that stopped it. */
  status: Status;
  /** The W3C trace id of this flow run, with `--trace` (also `${TRACE_ID}` in the flow). */
  trace_id?: string;
  /** ISO 8601 time the flow started. */
  started_at: string;
  /** Wall time of the flow. */
  duration_ms: number;
  /** Every step, in run order (of its last run, when it was re-run). */
  steps: StepResult[];
  /**
   * Set when the flow did not pass and then passed on a re-run (`--retries`,
   * `retries:`): its `status` is `passed`, and `attempts` holds the runs that
   * did not pass.
   */
  flaky?: boolean;
  /** How many re-runs the flow was allowed, when it was re-run. */
  retries?: number;
  /**
   * The earlier runs of a re-run flow, oldest first, none of which passed;
   * its own `steps` are its last run. Absent when it ran once.
   */
  attempts?: FlowAttempt[];
  /** `setup` or `teardown` for a `--setup` or `--teardown` flow; absent for the others. */
  role?: "setup" | "teardown";
}

/** One run of a flow that was re-run: it did not pass. */
export interface FlowAttempt {
  /** Which run it was, from 1. */
  attempt: number;
  /** How it ended. */
  status: Status;
  /** ISO 8601 time the run started. */
  started_at: string;
  /** Wall time of the run, its cleanup steps included. */
  duration_ms: number;
  /** Every step of the run, as a flow's `steps`. */
  steps: StepResult[];
}

/** Counts by status. */
export interface Counts {
  /** How many in all. */
  total: number;
  /** How many passed. */
  passed: number;
  /** How many failed (assertion, status, capture, poll). */
  failed: number;
  /** How many had an error (network, timeout, expression). */
  error: number;
  /** How many were skipped. */
  skipped: number;
}

/** Counts of flows by status, and how many of those that passed were flaky. */
export interface FlowCounts extends Counts {
  /** How many of the flows counted as passed did so on a re-run (absent when none did). */
  flaky?: number;
}

/** The outcome of a whole run. */
export interface RunResult {
  /** The run id behind `${RUN_ID}`. */
  run_id: string;
  /** The flowrun version that ran. */
  runner_version: string;
  /** ISO 8601 time the run started. */
  started_at: string;
  /** Wall time of the run. */
  duration_ms: number;
  /** `passed` when every flow passed, else `failed`. */
  status: "passed" | "failed";
  /** Set when a signal (`SIGINT`, `SIGTERM`) interrupted the run; unfinished steps are then skipped. */
  interrupted?: string;
  /**
   * Set when flow files had problems, so nothing was sent (exit 2): each
   * problem with its position. The flows then list each problem as a step
   * with `failure_kind: invalid`.
   */
  problems?: {
    file: string;
    line: number;
    column: number;
    code: string;
    message: string;
    hint?: string;
  }[];
  /** Counts of flows and steps by status, and of assertions. */
  totals: {
    flows: FlowCounts;
    steps: Counts;
    assertions: { total: number; passed: number; failed: number };
  };
  /**
   * What the run exercised of each OpenAPI document (`--openapi`,
   * `--coverage`); absent when coverage was not asked for.
   */
  openapi_coverage?: OpenApiCoverage[];
  /** How many threads ran the flows: `--workers N`, 1 when the run had none; absent in a merged report. */
  workers?: number;
  /**
   * With `--repeat`: requests, latency percentiles and errors of every
   * iteration, and how many the flows list (the rest are folded here).
   */
  latency?: LatencySummary;
  /** Every flow, in path order. */
  flows: FlowResult[];
}

/**
 * Counts statuses of a list of flows or steps.
 *
 * @example
 * ```ts
 * import { countStatuses } from "./result.ts";
 * const c = countStatuses([{ status: "passed" }, { status: "skipped" }]);
 * if (c.total !== 2 || c.passed !== 1 || c.skipped !== 1) throw new Error();
 * ```
 */
export function countStatuses(items: readonly { status: Status }[]): Counts {
  const counts: Counts = { total: items.length, passed: 0, failed: 0, error: 0, skipped: 0 };
  for (const item of items) counts[item.status]++;
  return counts;
}

/**
 * The totals of a run, counted from its flows: flows and steps by status,
 * assertions by outcome. Used by the runner and by anything that assembles a
 * run result from flow results.
 *
 * @example
 * ```ts
 * import { totalsOf } from "./result.ts";
 * const totals = totalsOf([{
 *   file: "a.yaml", name: "a", status: "passed", started_at: "", duration_ms: 1,
 *   steps: [{ name: "s", status: "passed", duration_ms: 1, attempts: 1, line: 1, column: 1,
 *     request: null, response: null, assertions: [], captures: [] }],
 * }]);
 * if (totals.flows.passed !== 1 || totals.steps.total !== 1 || totals.assertions.total !== 0) throw new Error();
 * ```
 */
export function totalsOf(flows: readonly FlowResult[]): RunResult["totals"] {
  // Flow by flow, with no list of every step: a spilled flow's steps are read back one at a time.
  const steps: Counts = { total: 0, passed: 0, failed: 0, error: 0, skipped: 0 };
  let total = 0;
  let failed = 0;
  for (const flow of flows) {
    for (const step of flow.steps) {
      steps.total++;
      steps[step.status]++;
      total += step.assertions.length;
      for (const a of step.assertions) if (!a.passed) failed++;
    }
  }
  const flaky = flows.reduce((n, f) => (f.flaky ? n + 1 : n), 0);
  return {
    flows: flaky > 0 ? { ...countStatuses(flows), flaky } : countStatuses(flows),
    steps,
    assertions: { total, passed: total - failed, failed },
  };
}

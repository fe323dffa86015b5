/**
 * The JSON report: the run result as data for other programs, described by
 * `schema/report.schema.json`.
 *
 * Keys are written in a fixed order, the order in which `lib/model/result.ts`
 * declares them, so that reports of two runs diff cleanly whatever order the
 * runner filled the objects in:
 *
 * - report: `schema_version`, `run_id`, `runner_version`, `started_at`,
 *   `duration_ms`, `status`, `interrupted`, `totals`, `flows`
 * - totals: `flows`, `steps`, `assertions`; counts: `total`, `passed`,
 *   `failed`, `error`, `skipped`, `flaky`
 * - flow: `file`, `name`, `status`, `started_at`, `duration_ms`, `steps`,
 *   `flaky`, `retries`, `attempts`; attempt: `attempt`, `status`,
 *   `started_at`, `duration_ms`, `steps`
 * - step: `name`, `status`, `duration_ms`, `attempts`, `line`, `column`,
 *   `request`, `response`, `assertions`, `captures`, `message`,
 *   `failure_kind`; request: `method`, `url`; response: `status`,
 *   `body_excerpt`, `content_type`
 * - assertion: `phase`, `path`, `operator`, `expected`, `actual`, `found`,
 *   `passed`, `message`, `line`, `column`
 *
 * Optional fields are left out rather than written as `null`. Values inside
 * `expected` and `actual` are written as they are.
 *
 * @module
 */
import {
  type AssertionResult,
  type FlowAttempt,
  type FlowCounts,
  type FlowResult,
  REPORT_SCHEMA_VERSION,
  type RunResult,
  type StepResult,
} from "../model/result.ts";
import type { Reporter } from "./reporter.ts";
import { type ReportFormat, type Spool, streamedReporter } from "./streamed.ts";

export { REPORT_SCHEMA_VERSION };

/**
 * The JSON report: the run result with the format version in front.
 *
 * @example
 * ```ts
 * import type { JsonReport } from "./json.ts";
 * const none = { total: 0, passed: 0, failed: 0, error: 0, skipped: 0 };
 * const report: JsonReport = {
 *   schema_version: 1, run_id: "r1", runner_version: "0.1.0", started_at: "", duration_ms: 0,
 *   status: "passed", totals: { flows: none, steps: none, assertions: { total: 0, passed: 0, failed: 0 } },
 *   flows: [],
 * };
 * if (report.schema_version !== 1) throw new Error();
 * ```
 */
export interface JsonReport extends RunResult {
  /** The report format version; see REPORT_SCHEMA_VERSION. */
  schema_version: typeof REPORT_SCHEMA_VERSION;
}

// Typed as complete records of each type's keys, so a field added to
// `result.ts` fails type checking here until its place is chosen; the order
// of the keys below is the order in the report.
const REPORT_KEYS: Record<keyof JsonReport, true> = {
  schema_version: true,
  run_id: true,
  runner_version: true,
  started_at: true,
  duration_ms: true,
  status: true,
  interrupted: true,
  problems: true,
  totals: true,
  workers: true,
  latency: true,
  // Just before the flows: the run's head is small, the coverage may be long.
  openapi_coverage: true,
  flows: true,
};
const TOTALS_KEYS: Record<keyof RunResult["totals"], true> = {
  flows: true,
  steps: true,
  assertions: true,
};
const COUNTS_KEYS: Record<keyof FlowCounts, true> = {
  total: true,
  passed: true,
  failed: true,
  error: true,
  skipped: true,
  flaky: true,
};
const ASSERTION_COUNTS_KEYS: Record<keyof RunResult["totals"]["assertions"], true> = {
  total: true,
  passed: true,
  failed: true,
};
const FLOW_KEYS: Record<keyof FlowResult, true> = {
  file: true,
  name: true,
  status: true,
  trace_id: true,
  started_at: true,
  duration_ms: true,
  steps: true,
  flaky: true,
  retries: true,
  attempts: true,
  role: true,
};
const ATTEMPT_KEYS: Record<keyof FlowAttempt, true> = {
  attempt: true,
  status: true,
  started_at: true,
  duration_ms: true,
  steps: true,
};
const STEP_KEYS: Record<keyof StepResult, true> = {
  name: true,
  status: true,
  duration_ms: true,
  start_ms: true,
  attempt_starts_ms: true,
  attempt_statuses: true,
  attempts: true,
  line: true,
  column: true,
  file: true,
  request: true,
  response: true,
  assertions: true,
  captures: true,
  capture_failures: true,
  trace: true,
  message: true,
  note: true,
  failure_kind: true,
};
const REQUEST_KEYS: Record<keyof NonNullable<StepResult["request"]>, true> = {
  method: true,
  url: true,
  headers: true,
  body: true,
  curl: true,
};
const RESPONSE_KEYS: Record<keyof NonNullable<StepResult["response"]>, true> = {
  status: true,
  body_excerpt: true,
  content_type: true,
  headers: true,
  body: true,
  body_truncated: true,
};
const ASSERTION_KEYS: Record<keyof AssertionResult, true> = {
  phase: true,
  path: true,
  operator: true,
  expected: true,
  actual: true,
  found: true,
  passed: true,
  skipped: true,
  message: true,
  name: true,
  file: true,
  line: true,
  column: true,
};

/** A key list's names, in order, and as a set. */
type Names = { list: string[]; set: Set<string> };

/** Each key list's names: every step and assertion is ordered by them. */
const NAMES = new WeakMap<object, Names>();

/** The names of a key list, built once per list. */
function namesOf(keys: object): Names {
  let names = NAMES.get(keys);
  if (!names) {
    const list = Object.keys(keys);
    NAMES.set(keys, names = { list, set: new Set(list) });
  }
  return names;
}

/**
 * Whether `value`'s keys already come in the order {@linkcode ordered} gives:
 * the listed ones in list order, unknown ones after them. The runner builds
 * most results that way, and a check allocates nothing where a copy made
 * three objects per step.
 */
function inOrder(value: object, names: Names): boolean {
  let at = 0;
  let unknown = false;
  for (const key in value) {
    if (!names.set.has(key)) {
      unknown = true;
      continue;
    }
    if (unknown) return false;
    while (at < names.list.length && names.list[at] !== key) at++;
    if (at === names.list.length) return false;
  }
  return true;
}

/**
 * `value` with `keys` first, in that order; unknown keys follow so none is
 * lost. `value` itself when its keys are in that order already (reports
 * only serialise it, and an undefined value is left out either way).
 */
function ordered<T extends object>(value: T, keys: Record<keyof T, true>): T {
  const names = namesOf(keys);
  if (inOrder(value, names)) return value;
  const source = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const key of names.list) if (source[key] !== undefined) out[key] = source[key];
  for (const key of Object.keys(source)) {
    if (!names.set.has(key) && source[key] !== undefined) out[key] = source[key];
  }
  return out as T;
}

/** `list` mapped by `f`, or `list` itself when `f` changed no item. */
function mapSame<T>(list: T[], f: (item: T) => T): T[] {
  let out: T[] | undefined;
  for (let i = 0; i < list.length; i++) {
    const item = f(list[i]);
    if (item !== list[i]) out ??= list.slice(0, i);
    out?.push(item);
  }
  return out ?? list;
}

function step(s: StepResult): StepResult {
  const request = s.request && ordered(s.request, REQUEST_KEYS);
  const response = s.response && ordered(s.response, RESPONSE_KEYS);
  const assertions = mapSame(s.assertions, (a) => ordered(a, ASSERTION_KEYS));
  const same = request === s.request && response === s.response && assertions === s.assertions;
  return ordered(same ? s : { ...s, request, response, assertions }, STEP_KEYS);
}

/**
 * Builds the JSON report of a run: `schema_version` followed by the run
 * result, keys in the documented order. Does not change `result`; parts of it
 * already in that order are shared, not copied (treat the report as read-only).
 *
 * @example
 * ```ts
 * import { toJsonReport } from "./json.ts";
 * const none = { total: 0, passed: 0, failed: 0, error: 0, skipped: 0 };
 * const report = toJsonReport({
 *   flows: [], totals: { flows: none, steps: none, assertions: { total: 0, passed: 0, failed: 0 } },
 *   status: "passed", duration_ms: 0, started_at: "", runner_version: "0.1.0", run_id: "r1",
 * });
 * if (Object.keys(report).join() !== "schema_version,run_id,runner_version,started_at,duration_ms,status,totals,flows") {
 *   throw new Error(Object.keys(report).join());
 * }
 * ```
 */
export function toJsonReport(result: RunResult): JsonReport {
  const { totals } = result;
  return ordered<JsonReport>({
    ...result,
    schema_version: REPORT_SCHEMA_VERSION,
    totals: ordered({
      flows: ordered(totals.flows, COUNTS_KEYS),
      steps: ordered(totals.steps, COUNTS_KEYS),
      assertions: ordered(totals.assertions, ASSERTION_COUNTS_KEYS),
    }, TOTALS_KEYS),
    flows: result.flows.map(jsonFlow),
  }, REPORT_KEYS);
}

function jsonFlow(f: FlowResult): FlowResult {
  const steps = mapSame(f.steps, step);
  // A re-run flow's earlier runs, each with its steps in the same order as the flow's.
  const attempts = f.attempts && mapSame(f.attempts, (a) => {
    const kept = mapSame(a.steps, step);
    return ordered(kept === a.steps ? a : { ...a, steps: kept }, ATTEMPT_KEYS);
  });
  const same = steps === f.steps && attempts === f.attempts;
  return ordered(same ? f : { ...f, steps, ...(attempts ? { attempts } : {}) }, FLOW_KEYS);
}

/**
 * The JSON report in pieces (see `streamed.ts`): together exactly
 * `JSON.stringify(toJsonReport(result), null, 2)` and a newline.
 *
 * @example
 * ```ts
 * import { JSON_FORMAT, toJsonReport } from "./json.ts";
 * import { renderWhole } from "./streamed.ts";
 * const none = { total: 0, passed: 0, failed: 0, error: 0, skipped: 0 };
 * const result = {
 *   run_id: "r1", runner_version: "0.1.0", started_at: "", duration_ms: 0, status: "passed" as const,
 *   totals: { flows: none, steps: none, assertions: { total: 0, passed: 0, failed: 0 } },
 *   flows: [{ file: "a.yaml", name: "a", status: "passed" as const, started_at: "", duration_ms: 1, steps: [] }],
 * };
 * const whole = JSON.stringify(toJsonReport(result), null, 2) + "\n";
 * if (renderWhole(JSON_FORMAT, result) !== whole) throw new Error();
 * if (renderWhole(JSON_FORMAT, { ...result, flows: [] }) !== JSON.stringify(toJsonReport({ ...result, flows: [] }), null, 2) + "\n") {
 *   throw new Error("empty");
 * }
 * ```
 */
export const JSON_FORMAT: ReportFormat = {
  head(result, empty) {
    const { flows: _, ...rest } = toJsonReport({ ...result, flows: [] });
    // The report without its last key, "flows", which follows.
    const text = JSON.stringify(rest, null, 2);
    return `${text.slice(0, -2)},\n  "flows": [${empty ? "" : "\n"}`;
  },
  body(flow) {
    // Two arrays deep, the flow comes out indented as it sits in "flows": no second pass over its
    // lines to indent them. Cut off are "[\n  [\n" before it and "\n  ]\n]" after.
    return JSON.stringify([[jsonFlow(flow)]], null, 2).slice(6, -6);
  },
  separator: ",\n",
  tail(_, empty) {
    return empty ? "]\n}\n" : "\n  ]\n}\n";
  },
};

/**
 * A reporter that writes the JSON report, pretty-printed, once the run has
 * ended, whatever its outcome; with a spool, flow by flow (see `streamed.ts`).
 *
 * @example
 * ```ts
 * import { jsonReporter } from "./json.ts";
 * let out = "";
 * const reporter = jsonReporter((text) => {
 *   out += text;
 *   return Promise.resolve();
 * });
 * const none = { total: 0, passed: 0, failed: 0, error: 0, skipped: 0 };
 * await reporter.onRunEnd?.({
 *   run_id: "r1", runner_version: "0.1.0", started_at: "", duration_ms: 0, status: "passed",
 *   totals: { flows: none, steps: none, assertions: { total: 0, passed: 0, failed: 0 } }, flows: [],
 * });
 * if (JSON.parse(out).schema_version !== 1 || !out.endsWith("}\n")) throw new Error(out);
 * ```
 */
export function jsonReporter(
  write: (text: string, last: boolean) => Promise<void>,
  spool?: Spool,
): Reporter {
  return streamedReporter(JSON_FORMAT, write, spool);
}

/**
 * The HTML report: one self-contained file for people. It opens from disk
 * without a network (inline CSS and JavaScript, no fonts, images or requests)
 * and shows the run at a glance (counts and a stacked bar), then every flow,
 * failed ones first, each expanding to a waterfall of its steps with the
 * details of what went wrong: the message and where in the flow file, the
 * assertion table, the request and the response, and trace links.
 *
 * The page is built in two parts. The summary at the top is rendered here as
 * static HTML. The flows travel as JSON inside
 * `<script type="application/json" id="data">` and a small vanilla script
 * draws the list, filters it and builds a flow's details only when it is
 * expanded, so a report of thousands of flows stays small and quick.
 *
 * Values keep forms the CLI's redactor knows: HTML-escaped text (the same
 * escapes as XML text) and JSON with every `/` written as `\/`.
 *
 * Pure: no I/O, no `Deno.*`.
 *
 * @module
 */
import script from "./html_assets/report.js" with { type: "text" };
import type { FlowResult, RunResult, StepResult } from "../model/result.ts";
import { pageTop } from "./html_page.ts";
import type { Reporter } from "./reporter.ts";
import { renderWhole, type ReportFormat, type Spool, streamedReporter } from "./streamed.ts";

/**
 * Options of the HTML report. (The page's top reads `title`, `shard` and
 * `provenance` as `PageOptions`; they are spelled out here so the public
 * type stands alone.)
 */
export interface HtmlOptions {
  /**
   * Turns trace ids into links: `{trace_id}` and `{span_id}` are replaced,
   * e.g. `http://jaeger:16686/trace/{trace_id}`. Without it the ids are shown.
   */
  traceLink?: string;
  /** The shard of a sharded run, shown at the top when known (`index` is 1-based). */
  shard?: { index: number; total: number };
  /** The page title (default `flowrun report`). */
  title?: string;
  /** The command that reruns a flow, shown in each failed flow. */
  reproduce?: (file: string) => string;
  /**
   * Where the run happened, shown at the top: `provider`, `commit`, `ref`,
   * `job_url`, `platform`, `deno`, `environment` (names of the variables
   * read) and any other name → value.
   */
  provenance?: Record<string, string>;
  /**
   * Each flow's recent streak (`✔✔✘⚠✔`, newest last) and a note when it
   * started failing in this run, from earlier reports (`--history`).
   */
  history?: (flow: FlowResult) => { streak: string; note?: string } | undefined;
}

/**
 * JSON that is safe inside a `<script>` element: no `</` can close it (every
 * `/` is written `\/`, a form the redactor knows), no `<!--` or `<script`
 * can change how the element is parsed, and U+2028/U+2029 are escaped.
 */
function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replaceAll("/", "\\/")
    .replace(/<(!--|script)/gi, "\\u003c$1")
    .replaceAll("\u2028", "\\u2028")
    .replaceAll("\u2029", "\\u2029");
}

/**
 * The flows as compact JSON data for the page script. Short keys keep a
 * report of thousands of flows small; passing assertions leave out their
 * message, which only repeats the path, operator and expected value.
 */
function flowData(f: FlowResult, options: HtmlOptions): unknown[] {
  const { reproduce } = options;
  const failed = f.status === "failed" || f.status === "error";
  const history = options.history?.(f);
  const rerun = rerunData(f);
  const data: unknown[] = [
    f.file,
    f.name,
    f.status,
    f.started_at,
    f.duration_ms,
    f.trace_id ?? null,
    f.steps.map(
      stepData,
    ),
    failed && reproduce ? reproduce(f.file) : null,
  ];
  // Only flows that were re-run, have a history or a role carry the last places.
  if (rerun || history || f.role) data.push(rerun, history ?? null);
  if (f.role) data.push(f.role);
  return data;
}

/** A re-run flow's earlier runs, each with its steps as the flow's are given. */
function rerunData(f: FlowResult): Record<string, unknown> | null {
  if (!f.attempts?.length) return null;
  return {
    flaky: f.flaky === true,
    retries: f.retries ?? f.attempts.length,
    attempts: f.attempts.map((a) => ({
      n: a.attempt,
      s: a.status,
      at: a.started_at,
      d: a.duration_ms,
      steps: a.steps.map(stepData),
    })),
  };
}

function stepData(s: StepResult): Record<string, unknown> {
  const out: Record<string, unknown> = {
    n: s.name,
    s: s.status,
    d: s.duration_ms,
    k: s.attempts,
    l: s.line,
    c: s.column,
  };
  if (s.file !== undefined) out.sf = s.file;
  if (s.start_ms !== undefined) out.t = s.start_ms;
  if (s.attempt_starts_ms && s.attempt_starts_ms.length > 1) out.a = s.attempt_starts_ms;
  if (s.attempt_statuses && s.attempt_statuses.length > 1) out.as = s.attempt_statuses;
  if (s.request) out.q = s.request;
  if (s.response) out.r = s.response;
  if (s.assertions.length > 0) {
    out.x = s.assertions.map((a) => [
      a.phase === "until" ? 1 : 0,
      a.path,
      a.operator,
      a.expected === undefined ? null : a.expected,
      a.actual === undefined ? null : a.actual,
      a.found ? 1 : 0,
      a.skipped ? 2 : a.passed ? 1 : 0,
      a.line,
      a.column,
      // A check written in a check file is placed there: its path follows the message slot.
      ...(a.passed && !a.skipped
        ? (a.file ? ["", a.file] : [])
        : [a.message, ...(a.file ? [a.file] : [])]),
    ]);
  }
  if (s.captures.length > 0) out.p = s.captures;
  // A capture that found nothing failed its step: a row of the step's table, as a failed check is.
  if (s.capture_failures?.length) {
    out.cf = s.capture_failures.map((c) => [c.name, c.message, c.line, c.column]);
  }
  if (s.trace) out.tr = [s.trace.trace_id, s.trace.span_id];
  if (s.message !== undefined) out.m = s.message;
  if (s.failure_kind !== undefined) out.f = s.failure_kind;
  return out;
}

/**
 * The page script (`html_assets/report.js`). It never contains `</`, so it cannot
 * close its element; tests/report/html_test.ts checks it.
 */
const SCRIPT: string = script;

/**
 * Renders a run as one self-contained HTML page: inline CSS and script, no
 * external resources, readable offline. Every value from the run is
 * HTML-escaped or carried as JSON data, so names, URLs and bodies cannot
 * inject markup.
 *
 * @example
 * ```ts
 * import { toHtml } from "./html.ts";
 * const none = { total: 0, passed: 0, failed: 0, error: 0, skipped: 0 };
 * const html = toHtml({
 *   run_id: "r1", runner_version: "0.1.0", started_at: "2025-01-01T00:00:00.000Z",
 *   duration_ms: 5, status: "passed",
 *   totals: { flows: none, steps: none, assertions: { total: 0, passed: 0, failed: 0 } },
 *   flows: [],
 * }, { title: "<nightly>", shard: { index: 2, total: 4 } });
 * if (!html.startsWith("<!doctype html>") || !html.includes("&lt;nightly&gt;")) throw new Error();
 * if (!html.includes("Shard <b>2/4</b>") || /<script src|<link/i.test(html)) throw new Error();
 * ```
 */
export function toHtml(result: RunResult, options: HtmlOptions = {}): string {
  return renderWhole(htmlFormat(options), result);
}

/** The opening of the flows' data, which the flows and the tail complete. */
function dataOpening(options: HtmlOptions): string {
  return `<script type="application/json" id="data">{"traceLink":${
    scriptJson(options.traceLink ?? null)
  },"flows":[`;
}

/**
 * The HTML report in pieces (see `streamed.ts`): the page, then each flow's
 * data as an element of the embedded JSON list; {@linkcode toHtml} is the
 * whole of it.
 *
 * @example
 * ```ts
 * import { htmlFormat } from "./html.ts";
 * import { renderWhole } from "./streamed.ts";
 * const none = { total: 0, passed: 0, failed: 0, error: 0, skipped: 0 };
 * const html = renderWhole(htmlFormat(), {
 *   run_id: "r1", runner_version: "0.1.0", started_at: "", duration_ms: 0, status: "passed",
 *   totals: { flows: none, steps: none, assertions: { total: 0, passed: 0, failed: 0 } },
 *   flows: [{ file: "a.yaml", name: "</script>", status: "passed", started_at: "", duration_ms: 1, steps: [] }],
 * });
 * const data = /id="data">(.*?)<\/script>/s.exec(html)?.[1];
 * if (JSON.parse(data!).flows[0][1] !== "</script>") throw new Error(data);
 * ```
 */
export function htmlFormat(options: HtmlOptions = {}): ReportFormat {
  return {
    head: (result) => `${pageTop(result, options)}${dataOpening(options)}`,
    body: (flow) => scriptJson(flowData(flow, options)),
    separator: ",",
    tail: () => `]}</script>\n<script>${SCRIPT}</script>\n</body>\n</html>\n`,
  };
}

/**
 * A reporter that writes the HTML report once the run has ended, whatever
 * its outcome.
 *
 * @example
 * ```ts
 * import { htmlReporter } from "./html.ts";
 * let out = "";
 * const reporter = htmlReporter((text) => {
 *   out = text;
 *   return Promise.resolve();
 * }, { title: "Nightly" });
 * const none = { total: 0, passed: 0, failed: 0, error: 0, skipped: 0 };
 * await reporter.onRunEnd?.({
 *   run_id: "r1", runner_version: "0.1.0", started_at: "", duration_ms: 0, status: "passed",
 *   totals: { flows: none, steps: none, assertions: { total: 0, passed: 0, failed: 0 } }, flows: [],
 * });
 * if (!out.includes("<h1>Nightly")) throw new Error(out.slice(0, 200));
 * ```
 */
export function htmlReporter(
  write: (text: string, last: boolean) => Promise<void>,
  options: HtmlOptions = {},
  spool?: Spool,
): Reporter {
  return streamedReporter(htmlFormat(options), write, spool);
}

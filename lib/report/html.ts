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
import css from "./html_assets/report.css" with { type: "text" };
import script from "./html_assets/report.js" with { type: "text" };
import type { Counts, FlowResult, RunResult, Status, StepResult } from "../model/result.ts";
import type { Reporter } from "./reporter.ts";
import { renderWhole, type ReportFormat, type Spool, streamedReporter } from "./streamed.ts";

/** Options of the HTML report. */
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
}

const HTML_ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&apos;",
};

/** Escapes text for HTML element content or a quoted attribute value. */
function esc(s: string): string {
  return s.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]);
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

/** `123 ms`, `4.56 s`, `2 min 3 s`. */
function duration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(2)} s`;
  const s = Math.round(ms / 1000);
  return `${Math.floor(s / 60)} min ${s % 60} s`;
}

const STATUSES: readonly Status[] = ["passed", "failed", "error", "skipped"];
const ICONS: Record<Status, string> = { passed: "✓", failed: "✗", error: "!", skipped: "–" };

/** A stacked bar of counts with a text equivalent for screen readers. */
function stackedBar(label: string, c: Counts): string {
  const parts = STATUSES.filter((s) => c[s] > 0);
  const text = c.total === 0
    ? `${label}: none`
    : `${label}: ${parts.map((s) => `${c[s]} ${s}`).join(", ")} of ${c.total}`;
  const segments = parts.map((s) =>
    `<span class="seg st-${s}" style="flex-grow:${c[s]}" title="${c[s]} ${s}"></span>`
  ).join("");
  const legend = STATUSES.map((s) =>
    `<li class="st-${s}"><span class="icon" aria-hidden="true">${ICONS[s]}</span> ` +
    `<span class="num">${c[s]}</span> ${s}</li>`
  ).join("");
  return `<div class="summary-row" data-kind="${esc(label.toLowerCase())}">
<h3>${esc(label)} <span class="total">${c.total}</span></h3>
<div class="stack" role="img" aria-label="${esc(text)}">${segments}</div>
<ul class="legend" aria-hidden="true">${legend}</ul>
</div>`;
}

/**
 * The flows as compact JSON data for the page script. Short keys keep a
 * report of thousands of flows small; passing assertions leave out their
 * message, which only repeats the path, operator and expected value.
 */
/** The CI and platform facts of the run, as header entries; a job URL is a link. */
function provenanceMeta(p: Record<string, string>): string[] {
  const out: string[] = [];
  const labels: Record<string, string> = {
    provider: "CI",
    ref: "Ref",
    pipeline_id: "Pipeline",
    job_id: "Job",
    platform: "Platform",
    deno: "Deno",
    environment: "Environment variables read",
  };
  for (const [key, value] of Object.entries(p)) {
    if (key === "job_url" || key === "commit") continue;
    out.push(`<span>${esc(labels[key] ?? key)} <b>${esc(value)}</b></span>`);
  }
  if (p.commit) {
    out.push(
      `<span>Commit <b class="mono" title="${esc(p.commit)}">${
        esc(p.commit.slice(0, 12))
      }</b></span>`,
    );
  }
  // Only http(s) links: a value from the environment must not become a javascript: URL.
  if (p.job_url && /^https?:\/\//i.test(p.job_url)) {
    out.push(`<span><a href="${esc(p.job_url)}" rel="noreferrer noopener">CI job</a></span>`);
  }
  return out;
}

function flowData(f: FlowResult, reproduce?: (file: string) => string): unknown[] {
  const failed = f.status === "failed" || f.status === "error";
  return [
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
      ...(a.passed && !a.skipped ? [] : [a.message]),
    ]);
  }
  if (s.captures.length > 0) out.p = s.captures;
  if (s.trace) out.tr = [s.trace.trace_id, s.trace.span_id];
  if (s.message !== undefined) out.m = s.message;
  if (s.failure_kind !== undefined) out.f = s.failure_kind;
  return out;
}

// The page's style and script are files of their own, embedded as text (in the compiled binary too).
const CSS: string = css;

/**
 * The page script (`html/report.js`). It never contains `</`, so it cannot
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

/** The page up to the flows' data: everything but the flows is known only at the end. */
function head(result: RunResult, options: HtmlOptions): string {
  const title = options.title ?? "flowrun report";
  const { flows, steps, assertions } = result.totals;
  const verdict = result.status === "passed" ? "passed" : "failed";
  const meta = [
    `<span>Run <b class="mono">${esc(result.run_id)}</b></span>`,
    `<span>Started <time datetime="${esc(result.started_at)}"><b>${
      esc(result.started_at.replace("T", " ").replace(/\.\d+Z$/, " UTC").replace(/Z$/, " UTC"))
    }</b></time></span>`,
    `<span>Took <b>${esc(duration(result.duration_ms))}</b></span>`,
    ...(options.shard
      ? [`<span>Shard <b>${options.shard.index}/${options.shard.total}</b></span>`]
      : []),
    `<span>Assertions <b>${assertions.passed}/${assertions.total}</b> passed</span>`,
    `<span>flowrun <b>${esc(result.runner_version)}</b></span>`,
    ...provenanceMeta(options.provenance ?? {}),
  ];
  const interrupted = result.interrupted
    ? `<p class="notice" role="status"><strong>Interrupted</strong> by ${
      esc(result.interrupted)
    }: unfinished steps are reported as skipped.</p>`
    : "";
  const failedFlows = flows.failed + flows.error;
  const filter = (key: string, label: string, n: number) =>
    `<button type="button" data-filter="${key}" aria-pressed="${
      key === "all"
    }">${label} (${n})</button>`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>${verdict === "passed" ? "✓" : "✗"} ${esc(title)} · ${esc(result.run_id)}</title>
<style>${CSS}</style>
</head>
<body>
<header>
<h1>${esc(title)} <span class="verdict st-${verdict} badge">${
    verdict === "passed" ? "✓ passed" : "✗ failed"
  }</span></h1>
<p class="meta">${meta.join("\n")}</p>
${interrupted}<section class="summary" aria-labelledby="summary-title">
<h2 id="summary-title" class="sr-only">Summary</h2>
${stackedBar("Flows", flows)}
${stackedBar("Steps", steps)}
</section>
</header>
<main>
<h2 id="flows-title">Flows</h2>
<noscript><p>The flow list needs JavaScript; the same data is in the JSON report.</p></noscript>
<div class="toolbar">
<div class="filters" role="group" aria-label="Show flows by status">
${filter("all", "All", flows.total)}
${filter("failed", "Failed", failedFlows)}
${filter("passed", "Passed", flows.passed)}
${filter("skipped", "Skipped", flows.skipped)}
</div>
<div class="search"><label for="search">Search</label>
<input id="search" type="search" placeholder="flow, step or file name" autocomplete="off"></div>
<p id="count" aria-live="polite" role="status"></p>
</div>
<ul id="flows" class="flows" aria-labelledby="flows-title"></ul>
<p id="empty" class="empty" hidden>No flows match.</p>
</main>
<footer>Failed and errored flows are listed first, then the rest by file path. Select a flow to see its steps.</footer>
<script type="application/json" id="data">{"traceLink":${
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
    head: (result) => head(result, options),
    body: (flow) => scriptJson(flowData(flow, options.reproduce)),
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

/**
 * The top of the HTML report, rendered as static HTML once the run has
 * ended: the document head with the inline style, the header (verdict, run
 * facts, where the run happened, the stacked bars of flows and steps) and
 * the empty flow list with its filters, which the page script fills.
 *
 * Pure: no I/O, no `Deno.*`.
 *
 * @module
 */
import css from "./html_assets/report.css" with { type: "text" };
import type { Counts, FlowCounts, RunResult, Status } from "../model/result.ts";
import { coverageSection } from "./html_coverage.ts";
import { esc } from "./html_escape.ts";

export { esc } from "./html_escape.ts";

/** What the top of the page shows besides the run. */
export interface PageOptions {
  /** The page title (default `flowrun report`). */
  title?: string;
  /** The shard of a sharded run, shown at the top when known (`index` is 1-based). */
  shard?: { index: number; total: number };
  /**
   * Where the run happened, shown at the top: `provider`, `commit`, `ref`,
   * `job_url`, `platform`, `deno`, `environment` (names of the variables
   * read) and any other name → value.
   */
  provenance?: Record<string, string>;
}

/**
 * The page up to the flows' data: everything but the flows is known only at
 * the end. Every value from the run is escaped.
 *
 * @example
 * ```ts
 * import { pageTop } from "./html_page.ts";
 * const none = { total: 0, passed: 0, failed: 0, error: 0, skipped: 0 };
 * const html = pageTop({
 *   run_id: "r1", runner_version: "0.1.0", started_at: "2025-01-01T00:00:00.000Z",
 *   duration_ms: 5, status: "failed",
 *   totals: { flows: none, steps: none, assertions: { total: 0, passed: 0, failed: 0 } }, flows: [],
 * }, { title: "<nightly>" });
 * if (!html.includes("<title>✗ &lt;nightly&gt; · r1</title>") || !html.endsWith("</footer>\n")) {
 *   throw new Error(html);
 * }
 * ```
 */
export function pageTop(result: RunResult, options: PageOptions): string {
  const title = options.title ?? "flowrun report";
  return documentHead(result, title) + header(result, title, options) +
    coverageSection(result.openapi_coverage) + flowList(result.totals.flows);
}

/** From the doctype to the opening of the body. */
function documentHead(result: RunResult, title: string): string {
  const verdict = result.status === "passed" ? "✓" : "✗";
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>${verdict} ${esc(title)} · ${esc(result.run_id)}</title>
<style>${CSS}</style>
</head>
<body>
`;
}

/** The verdict, the run's facts, an interruption and the stacked bars. */
function header(result: RunResult, title: string, options: PageOptions): string {
  const { flows, steps } = result.totals;
  const verdict = result.status === "passed" ? "passed" : "failed";
  const interrupted = result.interrupted
    ? `<p class="notice" role="status"><strong>Interrupted</strong> by ${
      esc(result.interrupted)
    }: unfinished steps are reported as skipped.</p>`
    : "";
  return `<header>
<h1>${esc(title)} <span class="verdict st-${verdict} badge">${
    verdict === "passed" ? "✓ passed" : "✗ failed"
  }</span></h1>
<p class="meta">${runMeta(result, options).join("\n")}</p>
${interrupted}<section class="summary" aria-labelledby="summary-title">
<h2 id="summary-title" class="sr-only">Summary</h2>
${stackedBar("Flows", flows)}
${stackedBar("Steps", steps)}
</section>
</header>
`;
}

/** The run's facts as header entries. */
function runMeta(result: RunResult, options: PageOptions): string[] {
  const { assertions } = result.totals;
  const started = result.started_at.replace("T", " ").replace(/\.\d+Z$/, " UTC").replace(
    /Z$/,
    " UTC",
  );
  return [
    `<span>Run <b class="mono">${esc(result.run_id)}</b></span>`,
    `<span>Started <time datetime="${esc(result.started_at)}"><b>${esc(started)}</b></time></span>`,
    `<span>Took <b>${esc(duration(result.duration_ms))}</b></span>`,
    ...(options.shard
      ? [`<span>Shard <b>${options.shard.index}/${options.shard.total}</b></span>`]
      : []),
    `<span>Assertions <b>${assertions.passed}/${assertions.total}</b> passed</span>`,
    // How the flows shared the machine: `--workers N`, else the main thread alone.
    ...(result.workers !== undefined
      ? [`<span>Worker threads <b>${result.workers}</b></span>`]
      : []),
    `<span>flowrun <b>${esc(result.runner_version)}</b></span>`,
    ...provenanceMeta(options.provenance ?? {}),
  ];
}

/** The flow list, empty until the page script fills it, with its filters and search. */
function flowList(flows: FlowCounts): string {
  const filter = (key: string, label: string, n: number) =>
    `<button type="button" data-filter="${key}" aria-pressed="${
      key === "all"
    }">${label} (${n})</button>`;
  // Flows that passed only on a re-run have a filter of their own, when there are any.
  const flaky = flows.flaky ? `${filter("flaky", "Flaky", flows.flaky)}\n` : "";
  return `<main>
<h2 id="flows-title">Flows</h2>
<noscript><p>The flow list needs JavaScript; the same data is in the JSON report.</p></noscript>
<div class="toolbar">
<div class="filters" role="group" aria-label="Show flows by status">
${filter("all", "All", flows.total)}
${filter("failed", "Failed", flows.failed + flows.error)}
${filter("passed", "Passed", flows.passed)}
${flaky}${filter("skipped", "Skipped", flows.skipped)}
</div>
<div class="search"><label for="search">Search</label>
<input id="search" type="search" placeholder="flow, step or file name" autocomplete="off"></div>
<p id="count" aria-live="polite" role="status"></p>
</div>
<ul id="flows" class="flows" aria-labelledby="flows-title"></ul>
<p id="empty" class="empty" hidden>No flows match.</p>
</main>
<footer>Setup flows are listed first and teardown flows last; between them failed and errored flows first, then flaky ones, then the rest by file path. Select a flow to see its steps.</footer>
`;
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

// The page's style is a file of its own, embedded as text (in the compiled binary too).
const CSS: string = css;

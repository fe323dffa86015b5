/**
 * The latency summary of a repeated run as the console prints it after the
 * run: the iterations, the throughput, then a table of requests, p50, p95,
 * p99 and max latency and errors by kind, one line per step and one for
 * every request.
 *
 * @module
 */
import type { LatencyStats, LatencySummary } from "../model/latency.ts";

/**
 * The summary as console lines.
 *
 * @example
 * ```ts
 * import { latencyText } from "./latency_text.ts";
 * const stats = { requests: 20, p50_ms: 2, p95_ms: 7.5, p99_ms: 9, max_ms: 9, errors: { status: 2 } };
 * const text = latencyText({
 *   repeat: 10, concurrency: 2, percentiles: "exact",
 *   iterations: { total: 10, passed: 8, failed: 2, not_run: 0, listed: 3 },
 *   requests_per_second: 40, overall: stats, steps: [{ file: "a.yaml", flow: "a", step: "get", ...stats }],
 * });
 * if (!text.includes("a › get") || !text.includes("status 2") || !text.includes("40 requests/s")) throw new Error(text);
 * ```
 */
export function latencyText(summary: LatencySummary): string {
  const { iterations: it } = summary;
  const notRun = it.not_run > 0 ? `, ${it.not_run} not run` : "";
  const rows = [
    ["", "requests", "p50", "p95", "p99", "max", "errors"],
    ...summary.steps.map((s) => row(`${s.flow} › ${s.step}`, s)),
    row("all requests", summary.overall),
  ];
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
  const table = rows.map((r) =>
    "  " +
    r.map((cell, c) =>
      c === 0 || c === r.length - 1 ? cell.padEnd(widths[c]) : cell.padStart(widths[c])
    ).join("  ").trimEnd()
  );
  return [
    "",
    `Latency of ${it.total} iterations (--repeat ${summary.repeat}, --concurrency ${summary.concurrency}): ` +
    `${it.passed} passed, ${it.failed} failed${notRun}; ${summary.overall.requests} requests, ` +
    `${summary.requests_per_second} requests/s`,
    ...table,
    `  (${it.listed} ${it.listed === 1 ? "iteration" : "iterations"} listed in the reports: ` +
    "each flow's first and the first failures)",
    "",
  ].join("\n");
}

/** One line of the table. */
function row(label: string, stats: LatencyStats): string[] {
  const errors = Object.entries(stats.errors).map(([kind, n]) => `${kind} ${n}`).join(", ");
  return [
    label,
    String(stats.requests),
    ms(stats.p50_ms),
    ms(stats.p95_ms),
    ms(stats.p99_ms),
    ms(stats.max_ms),
    errors || "-",
  ];
}

/** A latency with the unit, to a tenth of a millisecond. */
function ms(value: number): string {
  return `${value.toFixed(1)}ms`;
}

/**
 * Console output for people: a block per flow with a line per step, details
 * under each failure (where in the flow file, the request, what was expected
 * and what came back), and a summary. Flow files with problems are listed
 * like compiler errors, with the source line and a hint.
 *
 * @module
 */
import type { Problem } from "../errors.ts";
import type { AssertionResult, Counts, FlowResult, RunResult, StepResult } from "../result.ts";
import type { Reporter } from "./reporter.ts";
import { visible } from "./terminal.ts";

/** ANSI styling that can be switched off (`--no-color`, `NO_COLOR`, not a TTY). */
export interface Style {
  /** Passed. */
  green(s: string): string;
  /** Failed. */
  red(s: string): string;
  /** Skipped, hints. */
  yellow(s: string): string;
  /** Secondary text: durations, positions. */
  dim(s: string): string;
  /** File names. */
  bold(s: string): string;
}

/**
 * Returns styling functions; with `enabled` false they return text unchanged.
 *
 * @example
 * ```ts
 * import { style } from "./console.ts";
 * if (style(false).red("x") !== "x" || style(true).red("x") === "x") throw new Error();
 * ```
 */
export function style(enabled: boolean): Style {
  const code = (open: number, close: number) => (s: string) =>
    enabled ? `\x1b[${open}m${s}\x1b[${close}m` : s;
  return {
    green: code(32, 39),
    red: code(31, 39),
    yellow: code(33, 39),
    dim: code(2, 22),
    bold: code(1, 22),
  };
}

/** Options of the console reporter. */
export interface ConsoleOptions {
  /** Where text goes (standard output in the CLI). */
  write: (text: string) => void;
  /** Use ANSI colours. */
  color: boolean;
  /** Also list passing assertions and captured names. */
  verbose?: boolean;
  /** The command that reruns just this flow, printed under a flow that did not pass. */
  reproduce?: (file: string) => string;
  /**
   * Turns a step's trace context into a link (`--trace-link`): `{trace_id}`
   * and `{span_id}` are replaced, e.g. `http://jaeger:16686/trace/{trace_id}`.
   */
  traceLink?: string;
}

const ms = (n: number) => `${Math.round(n)} ms`;

function mark(status: StepResult["status"], s: Style): string {
  switch (status) {
    case "passed":
      return s.green("✔");
    case "skipped":
      return s.yellow("○");
    default:
      return s.red("✘");
  }
}

function counts(label: string, c: Counts, s: Style): string {
  const parts = [`${c.passed} passed`];
  if (c.failed) parts.push(s.red(`${c.failed} failed`));
  if (c.error) parts.push(s.red(`${c.error} error${c.error === 1 ? "" : "s"}`));
  if (c.skipped) parts.push(s.yellow(`${c.skipped} skipped`));
  return `${c.total} ${label}${c.total === 1 ? "" : "s"}: ${parts.join(", ")}`;
}

function assertionLine(file: string, a: AssertionResult, s: Style): string[] {
  const where = s.dim(`at ${visible(file)}:${a.line}:${a.column}`);
  const phase = a.phase === "until" ? "until " : "";
  // A passing check (shown with --verbose) needs no location; a failing one does.
  if (a.skipped) return [`${s.yellow("○")} ${phase}${visible(a.message)}`];
  return a.passed
    ? [`${s.green("✔")} ${phase}${visible(a.message)}`]
    : [`${s.red("✘")} ${phase}${visible(a.message)}`, `  ${where}`];
}

/** Display options of a flow block. */
export interface FlowFormat {
  /** Also list passing assertions and captured names. */
  verbose?: boolean;
  /** See {@linkcode ConsoleOptions.traceLink}. */
  traceLink?: string;
}

function stepDetails(flow: FlowResult, step: StepResult, format: FlowFormat, s: Style): string[] {
  const lines: string[] = [];
  const verbose = format.verbose ?? false;
  // One line per passing step; details are for failures (and everything with --verbose).
  if (step.status === "skipped" || (step.status === "passed" && !verbose)) return lines;
  if (step.request) {
    const status = step.response ? ` → ${step.response.status}` : "";
    lines.push(visible(`${step.request.method} ${step.request.url}`) + status);
  }
  if (step.trace) {
    const { trace_id, span_id } = step.trace;
    lines.push(s.dim(
      format.traceLink
        ? `trace: ${
          format.traceLink.replaceAll("{trace_id}", trace_id).replaceAll("{span_id}", span_id)
        }`
        : `trace: ${trace_id} span ${span_id}`,
    ));
  }
  const failed = step.assertions.filter((a) => !a.passed);
  const shown = verbose ? step.assertions : failed;
  if (step.failure_kind === "until") lines.push(visible(step.message!.replace(/:.*$/, ":")));
  else if (step.status !== "passed" && step.failure_kind !== "assertion") {
    lines.push(s.red(visible(step.message ?? "")));
  }
  // A step of an included flow is written in that file, with its checks and captures.
  const file = step.file ?? flow.file;
  for (const a of shown) lines.push(...assertionLine(file, a, s));
  for (const c of step.capture_failures ?? []) {
    lines.push(
      s.dim(`at ${visible(file)}:${c.line}:${c.column} (capture "${visible(c.name)}")`),
    );
  }
  if (step.status !== "passed" && failed.length === 0 && step.failure_kind !== "capture") {
    lines.push(s.dim(`at ${visible(file)}:${step.line}:${step.column}`));
  }
  if (verbose && step.captures.length > 0) {
    lines.push(s.dim(`captured: ${visible(step.captures.join(", "))}`));
  }
  if (step.response?.body_excerpt !== undefined) {
    const type = step.response.content_type ? ` (${step.response.content_type})` : "";
    lines.push(
      s.dim(visible(`response body${type}: ${step.response.body_excerpt || "(empty)"}`)),
    );
  }
  return lines;
}

/**
 * Formats a flow's block: a header, a line per step with its duration, and
 * details under each step that did not pass.
 *
 * @example
 * ```ts
 * import { formatFlow, style } from "./console.ts";
 * const text = formatFlow({
 *   file: "a.yaml", name: "A", status: "passed", started_at: "", duration_ms: 3,
 *   steps: [{ name: "ping", status: "passed", duration_ms: 2.4, attempts: 1, line: 3, column: 5,
 *     request: { method: "GET", url: "http://x.test" }, response: { status: 200 }, assertions: [], captures: [] }],
 * }, style(false));
 * if (!text.includes("✔ ping  2 ms")) throw new Error(text);
 * ```
 */
export function formatFlow(flow: FlowResult, s: Style, format: FlowFormat = {}): string {
  const names = flow.steps.map((st) => visible(st.name));
  const width = Math.max(...names.map((name) => name.length));
  const title = `${s.bold(visible(flow.file))} ${s.dim("·")} ${visible(flow.name)}`;
  // A flow that never started (fail-fast, interrupt) gets one line, not a list of skipped steps.
  if (
    flow.steps.every((st) => st.status === "skipped" && st.attempts === 0) &&
    flow.steps[0]?.message?.startsWith("Not run")
  ) {
    return `${mark("skipped", s)} ${title} ${
      s.yellow(visible(flow.steps[0].message!.replace(/^Not run/, "not run").replace(/\.$/, "")))
    }\n`;
  }
  const head = `${mark(flow.status, s)} ${title} ${s.dim(ms(flow.duration_ms))}`;
  const lines = [head];
  for (const [i, step] of flow.steps.entries()) {
    const name = names[i].padEnd(width);
    const tail = step.status === "skipped"
      ? s.yellow(
        visible((step.message ?? "Skipped").replace(/^Skipped/, "skipped").replace(/\.$/, "")),
      )
      : s.dim(ms(step.duration_ms) + (step.attempts > 1 ? ` · ${step.attempts} attempts` : ""));
    lines.push(`    ${mark(step.status, s)} ${name}  ${tail}`);
    for (const detail of stepDetails(flow, step, format, s)) lines.push(`        ${detail}`);
  }
  return lines.join("\n") + "\n";
}

/**
 * Formats the closing summary line of a run.
 *
 * @example
 * ```ts
 * import { formatSummary, style } from "./console.ts";
 * const c = { total: 1, passed: 1, failed: 0, error: 0, skipped: 0 };
 * const line = formatSummary({
 *   run_id: "r", runner_version: "0", started_at: "", duration_ms: 1234, status: "passed",
 *   totals: { flows: c, steps: c, assertions: { total: 0, passed: 0, failed: 0 } }, flows: [],
 * }, style(false));
 * if (line !== "1 flow: 1 passed · 1 step: 1 passed · 1.23 s\n") throw new Error(line);
 * ```
 */
export function formatSummary(result: RunResult, s: Style): string {
  const time = result.duration_ms >= 1000
    ? `${(result.duration_ms / 1000).toFixed(2)} s`
    : ms(result.duration_ms);
  return `${counts("flow", result.totals.flows, s)} ${s.dim("·")} ${
    counts("step", result.totals.steps, s)
  } ${s.dim("·")} ${time}\n`;
}

/**
 * A reporter that prints each flow's block when the flow ends, and the
 * summary when the run ends.
 *
 * @example
 * ```ts
 * import { consoleReporter } from "./console.ts";
 * let out = "";
 * const reporter = consoleReporter({ write: (t) => void (out += t), color: false });
 * await reporter.onRunStart?.({ run_id: "r1", runner_version: "0.1.0", started_at: "", files: ["a.yaml"] });
 * if (!out.startsWith("flowrun 0.1.0 · run r1 · 1 flow")) throw new Error(out);
 * ```
 */
export function consoleReporter(options: ConsoleOptions): Reporter {
  const s = style(options.color);
  // Flows may finish in any order; their blocks are printed in run (path) order.
  let order = new Map<string, number>();
  const done = new Map<number, FlowResult>();
  let nextToPrint = 0;
  const print = (flow: FlowResult) => {
    let text = formatFlow(flow, s, options);
    if (options.reproduce && (flow.status === "failed" || flow.status === "error")) {
      text += `    ${s.dim("reproduce:")} ${options.reproduce(flow.file)}\n`;
    }
    options.write(text + "\n");
  };
  return {
    onRunStart(run) {
      order = new Map(run.files.map((file, i) => [file, i]));
      const n = run.files.length;
      options.write(
        `${s.bold("flowrun")} ${run.runner_version} ${s.dim("·")} run ${run.run_id} ${
          s.dim("·")
        } ${n} flow${n === 1 ? "" : "s"}\n\n`,
      );
    },
    onFlowEnd(flow) {
      const index = order.get(flow.file);
      if (index === undefined) return print(flow);
      done.set(index, flow);
      while (done.has(nextToPrint)) {
        print(done.get(nextToPrint)!);
        done.delete(nextToPrint++);
      }
    },
    onRunEnd(result) {
      options.write(formatSummary(result, s));
    },
  };
}

/** Problems printed at most: a thousand errors help nobody, and the rest are in --format json. */
const MAX_SHOWN_PROBLEMS = 100;

/** Characters of a source line shown around a problem: long generated lines get a window. */
const EXCERPT_WIDTH = 120;

/**
 * The part of a source line around `column`, with the column moved to match.
 * `excerpt` may itself be a window of the line starting at column `start`.
 */
function excerptWindow(
  excerpt: string,
  column: number,
  start = 1,
): { text: string; column: number } {
  const at = column - start + 1;
  const head = start > 1 ? "…" : "";
  if (excerpt.length <= EXCERPT_WIDTH) {
    return { text: `${head}${excerpt}`, column: at + head.length };
  }
  const from = Math.max(0, Math.min(at - 1 - 40, excerpt.length - EXCERPT_WIDTH));
  const to = from + EXCERPT_WIDTH;
  const lead = from > 0 || start > 1 ? "…" : "";
  const text = `${lead}${excerpt.slice(from, to)}${to < excerpt.length ? "…" : ""}`;
  return { text, column: at - from + lead.length };
}

/**
 * Formats problems like compiler errors, grouped by file: the position, the
 * code and message, the source line with the spot underlined, and the hint.
 *
 * @example
 * ```ts
 * import { formatProblems, style } from "./console.ts";
 * const text = formatProblems([{
 *   code: "unknown-key", message: 'Unknown key "captures" in step "a".', file: "a.yaml",
 *   line: 5, column: 5, length: 8, hint: 'Did you mean "capture"?', excerpt: "    captures: {}",
 * }], style(false));
 * if (!text.includes("a.yaml:5:5 error[unknown-key]") || !text.includes("^^^^^^^^")) throw new Error(text);
 * ```
 */
export function formatProblems(
  problems: readonly Problem[],
  s: Style,
  /** What follows the count on the closing line: `run` sends nothing, `validate` counts files. */
  outcome = "nothing was sent",
): string {
  const sorted = [...problems].sort((a, b) =>
    a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line || a.column - b.column
  );
  const out: string[] = [];
  for (const p of sorted.slice(0, MAX_SHOWN_PROBLEMS)) {
    // The file's own characters are shown escaped (a flow may hold terminal controls).
    out.push(
      `${s.bold(visible(`${p.file}:${p.line}:${p.column}`))} ${s.red(`error[${p.code}]`)}: ${
        visible(p.message)
      }`,
    );
    if (p.excerpt !== undefined) {
      const gutter = String(p.line).length;
      const { text, column } = excerptWindow(p.excerpt, p.column, p.excerptStart);
      const at = Math.max(0, Math.min(column - 1, text.length));
      const length = Math.max(1, Math.min(p.length ?? 1, text.length - at));
      const before = visible(text.slice(0, at));
      const marked = visible(text.slice(at, at + length));
      out.push(s.dim(`${p.line} |`) + ` ${before}${marked}${visible(text.slice(at + length))}`);
      // Tabs stay tabs under the line so the caret lands under the same character.
      out.push(
        s.dim(`${" ".repeat(gutter)} |`) +
          ` ${before.replace(/[^\t]/g, " ")}${s.red("^".repeat(Math.max(1, marked.length)))}`,
      );
    }
    if (p.hint) out.push(`  ${s.yellow("hint:")} ${visible(p.hint)}`);
    out.push("");
  }
  // A `too-many-problems` problem stands for the problems it counts, not for one more.
  const count = (list: readonly Problem[]) =>
    list.reduce((n, p) => n + (p.omitted === undefined ? 1 : p.omitted), 0);
  if (sorted.length > MAX_SHOWN_PROBLEMS) {
    const more = count(sorted.slice(MAX_SHOWN_PROBLEMS));
    out.push(
      `… and ${more} more problem${
        more === 1 ? "" : "s"
      } (the first ${MAX_SHOWN_PROBLEMS} are shown; flowrun validate --format json lists more).`,
      "",
    );
  }
  const files = new Set(problems.map((p) => p.file)).size +
    problems.reduce((n, p) => n + (p.omittedFiles ?? 0), 0);
  const n = count(problems);
  out.push(
    `${n} problem${n === 1 ? "" : "s"} in ${files} file${files === 1 ? "" : "s"}; ${outcome}.`,
  );
  return out.join("\n") + "\n";
}

/**
 * Console output for people: a block per flow with a line per step, details
 * under each failure (where in the flow file, the request, what was expected
 * and what came back), and a summary. Flow files with problems are listed
 * like compiler errors, with the source line and a hint.
 *
 * @module
 */
import type { FlowCounts, FlowResult, RunResult, StepResult } from "../model/result.ts";
import { plural } from "../_util/plural.ts";
import type { Reporter } from "./reporter.ts";
import { type FlowFormat, stepDetails } from "./console_step.ts";
import { eachStepFailure } from "./failures.ts";
import { attemptLines, formatFlakyRecap, rerunLabel } from "./console_rerun.ts";
import type { History } from "./history.ts";
import { ProgressLine } from "./progress.ts";
import { type Style, style } from "./style.ts";
import { visible } from "./terminal.ts";

// The styling is its own module (console_step.ts and progress.ts use it too); re-exported for
// the CLI, which styles problems and summaries with the same functions.
export { type Style, style } from "./style.ts";
// Problems are printed by run and validate alike; re-exported where the CLI has always found them.
export { formatProblems } from "./problems.ts";

/**
 * How much the console shows: every step of every flow (`detailed`), one
 * line per flow with failing flows in full (`compact`), or failing flows
 * only (`failures`). Each ends with the summary, after a recap of the
 * failures when there was more than one flow.
 */
export type ConsoleMode = "detailed" | "compact" | "failures";

/** Options of the console reporter. */
export interface ConsoleOptions extends FlowFormat {
  /** Where text goes (standard output in the CLI). */
  write: (text: string) => void;
  /** Use ANSI colours. */
  color: boolean;
  /** See {@linkcode ConsoleMode} (default `detailed`). */
  mode?: ConsoleMode;
  /**
   * Output goes to a terminal: keep a progress line (flows done, failures,
   * what is running) under the printed blocks while the run lasts.
   */
  progress?: boolean;
  /** The command that reruns just this flow, printed under a flow that did not pass. */
  reproduce?: (file: string) => string;
  /** Earlier runs (`--history`): each flow's streak is shown before the summary. */
  history?: History;
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

function counts(label: string, c: FlowCounts, s: Style): string {
  // A flaky flow is counted as passed in the report; here it is named apart from the others.
  const parts = [`${c.passed - (c.flaky ?? 0)} passed`];
  if (c.flaky) parts.push(s.yellow(`${c.flaky} flaky`));
  if (c.failed) parts.push(s.red(`${c.failed} failed`));
  if (c.error) parts.push(s.red(plural(c.error, "error")));
  if (c.skipped) parts.push(s.yellow(`${c.skipped} skipped`));
  return `${plural(c.total, label)}: ${parts.join(", ")}`;
}

/** A flow the run never started (fail-fast, an interrupt): every step "Not run". */
function neverStarted(flow: FlowResult): boolean {
  return flow.steps.every((st) => st.status === "skipped" && st.attempts === 0) &&
    (flow.steps[0]?.message?.startsWith("Not run") ?? false);
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
  // A flow that never started (fail-fast, interrupt) gets one line, not a list of skipped steps,
  // in the summary's word for it: "skipped".
  if (neverStarted(flow)) {
    return `${mark("skipped", s)} ${title} ${
      s.yellow(visible(flow.steps[0].message!.replace(/^Not run/, "skipped").replace(/\.$/, "")))
    }\n`;
  }
  const rerun = rerunLabel(flow, s);
  const head = rerun
    ? `${rerun.mark || mark(flow.status, s)} ${title} ${rerun.words} ${s.dim(ms(flow.duration_ms))}`
    : `${mark(flow.status, s)} ${title} ${s.dim(ms(flow.duration_ms))}`;
  const lines = [head, ...attemptLines(flow, s).map((line) => `    ${line}`)];
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
 * One line for a flow: its mark, file and name, duration and step count.
 *
 * @example
 * ```ts
 * import { formatFlowLine, style } from "./console.ts";
 * const line = formatFlowLine({ file: "a.yaml", name: "A", status: "passed", started_at: "",
 *   duration_ms: 3, steps: [] }, style(false));
 * if (line !== "✔ a.yaml · A 3 ms · 0 steps\n") throw new Error(line);
 * ```
 */
export function formatFlowLine(flow: FlowResult, s: Style): string {
  // A flow that never started already is one line, saying why.
  if (neverStarted(flow)) return formatFlow(flow, s);
  const n = flow.steps.length;
  // A flow cut short (an interrupt) says so: its steps are not listed.
  const why = flow.status === "skipped"
    ? ` ${s.yellow(visible(flow.steps.find((st) => st.status === "skipped")?.message ?? ""))}`
    : "";
  const rerun = rerunLabel(flow, s);
  const attempts = attemptLines(flow, s).map((line) => `    ${line}\n`).join("");
  return `${rerun?.mark || mark(flow.status, s)} ${s.bold(visible(flow.file))} ${s.dim("·")} ${
    visible(flow.name)
  }${rerun ? ` ${rerun.words}` : ""} ${
    s.dim(`${ms(flow.duration_ms)} · ${plural(n, "step")}`)
  }${why}\n${attempts}`;
}

/**
 * The failures of a run, one line each with where to look: the failed
 * check's (or step's) position, the flow and step, and the first reason. A
 * long log ends pointing straight at what broke.
 *
 * @example
 * ```ts
 * import { formatRecap, style } from "./console.ts";
 * const step = { name: "get", status: "failed", duration_ms: 1, attempts: 1, line: 3, column: 5, captures: [],
 *   assertions: [{ passed: false, message: "status: expected 200, got 500", line: 6, column: 7 }] };
 * const text = formatRecap([{ file: "a.yaml", name: "A", status: "failed", started_at: "", duration_ms: 1,
 *   steps: [step] }] as never, style(false));
 * if (!text.includes("a.yaml:6:7  A › get: status: expected 200, got 500")) throw new Error(text);
 * ```
 */
export function formatRecap(flows: readonly FlowResult[], s: Style): string {
  const failing = flows.filter((f) => f.status === "failed" || f.status === "error");
  const lines: string[] = [];
  for (const { flow, step, file, line, column, reason } of eachStepFailure(failing)) {
    lines.push(
      `  ${mark(step.status, s)} ${s.bold(visible(`${file}:${line}:${column}`))}  ${
        visible(`${flow.name} › ${step.name}: ${reason}`)
      }`,
    );
  }
  return lines.length === 0 ? "" : `${s.red("Failures:")}\n${lines.join("\n")}\n\n`;
}

/**
 * A reporter that prints each flow as it ends (a block or a line, by
 * {@linkcode ConsoleMode}), a recap of the failures, and the summary.
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
  const mode = options.mode ?? "detailed";
  const progress = options.progress ? new ProgressLine(options.write, s) : undefined;
  // Whether a compact line was printed (it needs a blank line after it); results are not kept.
  let lines = false;
  const print = (flow: FlowResult) => {
    const failed = flow.status === "failed" || flow.status === "error";
    // A flaky flow passed, but it is news: the failures view shows it too.
    if (mode === "failures" && !failed && !flow.flaky) return;
    let text = mode === "compact" && !failed
      ? formatFlowLine(flow, s)
      : formatFlow(flow, s, options);
    if (options.reproduce && failed) {
      // One line, and nothing a terminal acts on: a file name may hold a line break or an escape.
      text += `    ${s.dim("reproduce:")} ${visible(options.reproduce(flow.file))}\n`;
    }
    options.write(mode === "compact" && !failed ? text : text + "\n");
  };
  return {
    onRunStart(run) {
      const n = run.files.length;
      options.write(
        `${s.bold("flowrun")} ${run.runner_version} ${s.dim("·")} run ${run.run_id} ${s.dim("·")} ${
          plural(n, "flow")
        }\n\n`,
      );
      progress?.start(n);
    },
    onFlowStart(flow) {
      // A re-run (`--retries`) is the same flow still running: it ends once.
      if (!flow.attempt) progress?.started(flow.file);
    },
    onFlowEnd(flow) {
      lines ||= flow.status !== "failed" && flow.status !== "error";
      // Flows print as they end: one slow flow holds back nothing that finished after it.
      progress?.clear();
      print(flow);
      progress?.ended(flow);
    },
    async onRunEnd(result) {
      progress?.clear();
      if (mode === "compact" && lines) {
        options.write("\n");
      }
      await writeEnd(result, options, s);
    },
  };
}

/**
 * The end of a run: the recaps, the streaks and the coverage it asked for,
 * then the summary. Without `--history` or coverage it writes at once.
 */
async function writeEnd(result: RunResult, options: ConsoleOptions, s: Style): Promise<void> {
  // The recap follows the run's (path) order, whatever order flows ended in.
  if (result.flows.length > 1) options.write(formatRecap(result.flows, s));
  if (result.totals.flows.flaky) options.write(formatFlakyRecap(result.flows, s));
  if (options.history) {
    // Only runs given --history load its text.
    const { formatHistory } = await import("./console_history.ts");
    options.write(formatHistory(result.flows, options.history, s));
  }
  if (result.openapi_coverage) {
    // Only runs asked for coverage load its text.
    const [{ formatCoverage }, { flowsOverlapped }] = await Promise.all([
      import("./coverage_text.ts"),
      import("./flows_overlap.ts"),
    ]);
    options.write(formatCoverage(result.openapi_coverage, s, flowsOverlapped(result.flows)));
  }
  options.write(formatSummary(result, s));
}

export type { FlowFormat } from "./console_step.ts";

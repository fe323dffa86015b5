/**
 * The lines under a step in the console: for a step that did not pass, the
 * request, each failed check with its source line and a caret, the actual
 * value of a list or map, and the response body pretty-printed; with `-v`
 * the same for every step plus the headers both ways; with `-vv` whole
 * bodies.
 *
 * @module
 */
import type { AssertionResult, FlowResult, StepResult } from "../model/result.ts";
import type { Style } from "./style.ts";
import { shownBody } from "./console_body.ts";
import { visible } from "./terminal.ts";
import { clipped } from "../_util/clip.ts";

/** Display options of a flow block. */
export interface FlowFormat {
  /**
   * 0 (or false): details for steps that did not pass; 1 (or true, `-v`):
   * for every step, with passing checks, captures and headers; 2 (`-vv`):
   * also whole bodies.
   */
  verbose?: number | boolean;
  /**
   * Turns a step's trace context into a link (`--trace-link`): `{trace_id}`
   * and `{span_id}` are replaced, e.g. `http://jaeger:16686/trace/{trace_id}`.
   */
  traceLink?: string;
  /** Line `line` (1-based) of a flow file, shown under a failure with a caret. */
  sourceLine?: (file: string, line: number) => string | undefined;
  /** Show the `curl` command of each step that did not pass (default: yes). */
  curl?: boolean;
}

/** Characters of an actual list or map shown under a failed check. */
const ACTUAL_CHARS = 300;

/**
 * The detail lines under `step` (none for a passing step unless verbose).
 *
 * @example
 * ```ts
 * import { stepDetails } from "./console_step.ts";
 * import { style } from "./style.ts";
 * const step = { name: "get", status: "failed", duration_ms: 1, attempts: 1, line: 3, column: 5, captures: [],
 *   request: { method: "GET", url: "http://x.test/" }, response: { status: 200, body: '{"items":[1,2]}' },
 *   assertions: [{ phase: "assert", path: "$.json.items", operator: "length", expected: 3, actual: [1, 2],
 *     found: true, passed: false, message: "$.json.items: expected length 3, got 2", line: 6, column: 9 }] };
 * const lines = stepDetails({ file: "a.yaml" } as never, step as never, {
 *   sourceLine: () => "        length: 3",
 * }, style(false));
 * if (!lines.includes("  6 |         length: 3") || !lines.includes("  actual: [1,2]")) throw new Error(lines.join("\n"));
 * ```
 */
export function stepDetails(
  flow: FlowResult,
  step: StepResult,
  format: FlowFormat,
  s: Style,
): string[] {
  const level = format.verbose === true ? 1 : format.verbose || 0;
  // One line per passing step; details are for failures (and everything with -v).
  if (step.status === "skipped" || (step.status === "passed" && level === 0)) return [];
  // A step of an included flow is written in that file, with its checks and captures.
  const file = step.file ?? flow.file;
  const failed = step.assertions.filter((a) => !a.passed);
  const source = (line: number, column: number, at = file) =>
    sourceLines(format, at, line, column, s);
  const shown: Shown = { step, format, s, level, file, failed, source };
  const lines: string[] = [];
  for (const section of SECTIONS) lines.push(...section(shown));
  return lines;
}

/** What the sections under one step read: worked out once by {@linkcode stepDetails}. */
interface Shown {
  step: StepResult;
  format: FlowFormat;
  s: Style;
  /** 0, 1 (`-v`) or 2 (`-vv`). */
  level: number;
  /** The file the step is written in. */
  file: string;
  /** The step's checks that did not pass. */
  failed: AssertionResult[];
  /** The source line at a position, with a caret. */
  source: (line: number, column: number, file?: string) => string[];
}

/** The request line, and with -v what went both ways. */
function requestSection({ step, level, s }: Shown): string[] {
  if (!step.request) return [];
  const status = step.response ? ` → ${step.response.status}` : "";
  const line = visible(`${step.request.method} ${step.request.url}`) + status;
  return level > 0 ? [line, ...exchange(step, level, s)] : [line];
}

/** With -v, how the credentials were sent when not as the auth block says. */
function noteSection({ step, level, s }: Shown): string[] {
  return step.note && level > 0 ? [s.dim(visible(step.note))] : [];
}

function traceSection({ step, format, s }: Shown): string[] {
  return step.trace ? [s.dim(traceLine(step.trace, format.traceLink))] : [];
}

/** Why the step did not pass, unless its failed checks say it themselves. */
function outcomeSection({ step, s }: Shown): string[] {
  if (step.failure_kind === "until") return [visible(step.message!.replace(/:.*$/, ":"))];
  if (step.status === "passed" || step.failure_kind === "assertion") return [];
  return [s.red(visible(step.message ?? ""))];
}

/** The failed checks, or with -v every check. */
function checksSection({ step, s, level, file, failed, source }: Shown): string[] {
  const shown = level > 0 ? step.assertions : failed;
  return shown.flatMap((a) => assertionLines(file, a, s, source));
}

function captureFailuresSection({ step, s, file, source }: Shown): string[] {
  return (step.capture_failures ?? []).flatMap((c) => [
    s.dim(`at ${visible(file)}:${c.line}:${c.column} (capture "${visible(c.name)}")`),
    ...source(c.line, c.column),
  ]);
}

/** Where a step that failed without a failed check or capture is written. */
function stepLocationSection({ step, s, file, failed, source }: Shown): string[] {
  if (step.status === "passed" || failed.length > 0 || step.failure_kind === "capture") return [];
  return [
    s.dim(`at ${visible(file)}:${step.line}:${step.column}`),
    ...source(step.line, step.column),
  ];
}

function capturedSection({ step, s, level }: Shown): string[] {
  if (level === 0 || step.captures.length === 0) return [];
  return [s.dim(`captured: ${visible(step.captures.join(", "))}`)];
}

function responseBodySection({ step, s, level }: Shown): string[] {
  const response = step.response;
  if (response?.body === undefined && response?.body_excerpt === undefined) return [];
  const type = response.content_type ? ` (${response.content_type})` : "";
  const body = response.body ?? response.body_excerpt ?? "";
  if (body === "") return [s.dim(`response body${type}: (empty)`)];
  const shown = shownBody(body, level, response.body_truncated).map((l) => `  ${l}`);
  return [s.dim(`response body${type}:`), ...shown];
}

function curlSection({ step, format, s }: Shown): string[] {
  if (format.curl === false || !step.request?.curl || step.status === "passed") return [];
  return [`${s.dim("curl:")} ${visible(step.request.curl)}`];
}

/** The sections under a step, in the order they are printed. */
const SECTIONS: readonly ((shown: Shown) => string[])[] = [
  requestSection,
  noteSection,
  traceSection,
  outcomeSection,
  checksSection,
  captureFailuresSection,
  stepLocationSection,
  capturedSection,
  responseBodySection,
  curlSection,
];

function traceLine(trace: { trace_id: string; span_id: string }, link: string | undefined): string {
  const { trace_id, span_id } = trace;
  return link
    ? `trace: ${link.replaceAll("{trace_id}", trace_id).replaceAll("{span_id}", span_id)}`
    : `trace: ${trace_id} span ${span_id}`;
}

/** With -v: the headers sent and received, and the request body. */
function exchange(step: StepResult, level: number, s: Style): string[] {
  const lines: string[] = [];
  for (const [name, value] of Object.entries(step.request?.headers ?? {})) {
    lines.push(s.dim(visible(`> ${name}: ${value}`)));
  }
  const body = step.request?.body;
  if (body !== undefined && body !== "") {
    lines.push(s.dim("request body:"), ...shownBody(body, level).map((l) => `  ${l}`));
  }
  for (const [name, value] of Object.entries(step.response?.headers ?? {})) {
    lines.push(s.dim(visible(`< ${name}: ${value}`)));
  }
  return lines;
}

function assertionLines(
  file: string,
  a: AssertionResult,
  s: Style,
  source: (line: number, column: number, file?: string) => string[],
): string[] {
  const phase = a.phase === "until" ? "until " : "";
  // A passing check (shown with -v) needs no location; a failing one does.
  if (a.skipped) return [`${s.yellow("○")} ${phase}${visible(a.message)}`];
  if (a.passed) return [`${s.green("✔")} ${phase}${visible(a.message)}`];
  const lines = [
    `${s.red("✘")} ${phase}${visible(a.message)}`,
    // A check of a check file is written there.
    `  ${s.dim(`at ${visible(a.file ?? file)}:${a.line}:${a.column}`)}`,
    ...source(a.line, a.column, a.file ?? file),
  ];
  // A list or map is named by its size in the message; the elements are what a person needs.
  // (A large one was already cut to an excerpt, marked "truncated", when the check ran.)
  const cut = typeof a.actual === "string" && /^[[{][^]*truncated\)$/.test(a.actual);
  if (a.found && ((typeof a.actual === "object" && a.actual !== null) || cut)) {
    const text = cut ? a.actual as string : JSON.stringify(a.actual);
    const shown = clipped(text, ACTUAL_CHARS);
    lines.push(`  actual: ${visible(shown)}`);
  }
  return lines;
}

/** The flow's source line under a failure, with a caret at the column. */
function sourceLines(
  format: FlowFormat,
  file: string,
  line: number,
  column: number,
  s: Style,
): string[] {
  const text = format.sourceLine?.(file, line);
  if (text === undefined || line < 1) return [];
  const gutter = String(line).length;
  const shown = text.length > 160 ? `${text.slice(0, 159)}…` : text;
  const before = shown.slice(0, Math.max(0, Math.min(column - 1, shown.length)));
  return [
    `  ${s.dim(`${line} |`)} ${visible(shown)}`,
    `  ${s.dim(`${" ".repeat(gutter)} |`)} ${visible(before).replace(/[^\t]/g, " ")}${s.red("^")}`,
  ];
}

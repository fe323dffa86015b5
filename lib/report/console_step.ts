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
import { visible } from "./terminal.ts";

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

/** Lines of a body shown under a failure without `-vv`. */
const BODY_LINES = 20;
/** Characters of a body shown under a failure without `-vv`. */
const BODY_CHARS = 2000;
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
  const lines: string[] = [];
  const level = format.verbose === true ? 1 : format.verbose || 0;
  // One line per passing step; details are for failures (and everything with -v).
  if (step.status === "skipped" || (step.status === "passed" && level === 0)) return lines;
  if (step.request) {
    const status = step.response ? ` → ${step.response.status}` : "";
    lines.push(visible(`${step.request.method} ${step.request.url}`) + status);
    if (level > 0) lines.push(...exchange(step, level, s));
  }
  if (step.trace) lines.push(s.dim(traceLine(step.trace, format.traceLink)));
  const failed = step.assertions.filter((a) => !a.passed);
  const shown = level > 0 ? step.assertions : failed;
  if (step.failure_kind === "until") lines.push(visible(step.message!.replace(/:.*$/, ":")));
  else if (step.status !== "passed" && step.failure_kind !== "assertion") {
    lines.push(s.red(visible(step.message ?? "")));
  }
  // A step of an included flow is written in that file, with its checks and captures.
  const file = step.file ?? flow.file;
  const source = (line: number, column: number) => sourceLines(format, file, line, column, s);
  for (const a of shown) lines.push(...assertionLines(file, a, s, source));
  for (const c of step.capture_failures ?? []) {
    lines.push(s.dim(`at ${visible(file)}:${c.line}:${c.column} (capture "${visible(c.name)}")`));
    lines.push(...source(c.line, c.column));
  }
  if (step.status !== "passed" && failed.length === 0 && step.failure_kind !== "capture") {
    lines.push(s.dim(`at ${visible(file)}:${step.line}:${step.column}`));
    lines.push(...source(step.line, step.column));
  }
  if (level > 0 && step.captures.length > 0) {
    lines.push(s.dim(`captured: ${visible(step.captures.join(", "))}`));
  }
  const response = step.response;
  if (response?.body !== undefined || response?.body_excerpt !== undefined) {
    const type = response.content_type ? ` (${response.content_type})` : "";
    const body = response.body ?? response.body_excerpt ?? "";
    if (body === "") lines.push(s.dim(`response body${type}: (empty)`));
    else {
      lines.push(s.dim(`response body${type}:`));
      lines.push(...shownBody(body, level, response.body_truncated).map((l) => `  ${l}`));
    }
  }
  if (format.curl !== false && step.request?.curl && step.status !== "passed") {
    lines.push(`${s.dim("curl:")} ${visible(step.request.curl)}`);
  }
  return lines;
}

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
  source: (line: number, column: number) => string[],
): string[] {
  const phase = a.phase === "until" ? "until " : "";
  // A passing check (shown with -v) needs no location; a failing one does.
  if (a.skipped) return [`${s.yellow("○")} ${phase}${visible(a.message)}`];
  if (a.passed) return [`${s.green("✔")} ${phase}${visible(a.message)}`];
  const lines = [
    `${s.red("✘")} ${phase}${visible(a.message)}`,
    `  ${s.dim(`at ${visible(file)}:${a.line}:${a.column}`)}`,
    ...source(a.line, a.column),
  ];
  // A list or map is named by its size in the message; the elements are what a person needs.
  // (A large one was already cut to an excerpt, marked "truncated", when the check ran.)
  const cut = typeof a.actual === "string" && /^[[{][^]*truncated\)$/.test(a.actual);
  if (a.found && ((typeof a.actual === "object" && a.actual !== null) || cut)) {
    const text = cut ? a.actual as string : JSON.stringify(a.actual);
    const shown = text.length > ACTUAL_CHARS ? `${text.slice(0, ACTUAL_CHARS)}…` : text;
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

/** Characters up to which a list or map stays on one line. */
const INLINE = 72;

/**
 * JSON indented by two, but a list or map that fits in {@linkcode INLINE}
 * characters stays on one line: thirty `{"id": 1}` take three lines, not ninety.
 */
function prettyJson(value: unknown, indent: string): string {
  const flat = JSON.stringify(value);
  if (typeof value !== "object" || value === null || flat.length + indent.length <= INLINE) {
    return flat;
  }
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    // Short items share lines, like a wrapped paragraph.
    const items = value.map((v) => prettyJson(v, inner));
    const lines: string[] = [];
    for (const item of items) {
      const last = lines.length - 1;
      if (
        !item.includes("\n") && last >= 0 && !lines[last].includes("\n") &&
        lines[last].length + item.length + 2 + inner.length <= INLINE
      ) lines[last] += `, ${item}`;
      else lines.push(item);
    }
    return `[\n${lines.map((l) => `${inner}${l}`).join(",\n")}\n${indent}]`;
  }
  const entries = Object.entries(value).map(([k, v]) =>
    `${inner}${JSON.stringify(k)}: ${prettyJson(v, inner)}`
  );
  return `{\n${entries.join(",\n")}\n${indent}}`;
}

/**
 * A body as a person reads it: JSON pretty-printed, then cut at
 * {@linkcode BODY_LINES} lines or {@linkcode BODY_CHARS} characters unless `-vv`.
 */
function shownBody(body: string, level: number, truncated?: number): string[] {
  let text = body;
  try {
    text = prettyJson(JSON.parse(body), "");
  } catch {
    // Not JSON (or cut short by the report's cap): shown as it came.
  }
  const all = text.split("\n");
  const lines: string[] = [];
  let chars = 0;
  for (const line of all) {
    if (level < 2 && (lines.length === BODY_LINES || chars + line.length > BODY_CHARS)) break;
    lines.push(visible(line));
    chars += line.length + 1;
  }
  if (lines.length === 0 && all.length > 0) lines.push(visible(`${all[0].slice(0, BODY_CHARS)}…`));
  const more = all.length - lines.length;
  if (more > 0) lines.push(`… ${more} more line${more === 1 ? "" : "s"} (-vv shows all)`);
  if (truncated) lines.push(`… ${truncated} more characters (kept out of the reports)`);
  return lines;
}

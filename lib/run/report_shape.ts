/**
 * The shape of a JSON report (`--report-json`) as `flowrun merge` reads it:
 * the fields of a run result present with the right basic types, nesting
 * bounded, the first wrong field named by its path.
 *
 * @module
 */
import { REPORT_SCHEMA_VERSION } from "../model/result.ts";
import { clipped } from "../_util/clip.ts";

/**
 * What to do about a file that is not a JSON report.
 *
 * @example
 * ```ts
 * import { REPORT_HINT } from "./report_shape.ts";
 * if (!REPORT_HINT.includes("--report-json")) throw new Error();
 * ```
 */
export const REPORT_HINT =
  "Pass the files written by flowrun run --report-json (not the JUnit reports).";

/**
 * Why a value does not fit: thrown inside the checker, turned into a
 * `UsageError` by the caller.
 *
 * @example
 * ```ts
 * import { Mismatch, REPORT_HINT } from "./report_shape.ts";
 * if (new Mismatch("status must be a string").hint !== REPORT_HINT) throw new Error();
 * ```
 */
export class Mismatch extends Error {
  constructor(message: string, readonly hint = REPORT_HINT) {
    super(message);
  }
}

type Json = Record<string, unknown>;

/** Describes a JSON value's type for a message: "an array", "null", "a string", … */
function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  const type = typeof value;
  return type === "object" ? "an object" : `a ${type}`;
}

/** How much of a crafted string a message quotes: enough to recognise it. */
const QUOTE_MAX = 60;

/**
 * A string from the report, quoted for a one-line message: cut to
 * QUOTE_MAX characters, and every character that could act on a terminal or
 * break the line (controls, line separators, bidi overrides) escaped.
 */
function quote(value: string): string {
  const chars = Array.from(value);
  const cut = chars.length > QUOTE_MAX ? `${chars.slice(0, QUOTE_MAX).join("")}…` : value;
  // JSON.stringify already escapes C0 controls and lone surrogates.
  return JSON.stringify(cut).replace(
    /[\u007f-\u009f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]/gu,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

/** A value as a message shows it: a quoted string, a number, or its kind. */
function shown(value: unknown): string {
  if (typeof value === "string") return quote(value);
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return describe(value);
}

/** The JSON location of `key` inside `at`: `a.b`, or `a["odd key"]` when it is not a name. */
function member(at: string, key: string): string {
  if (/^[A-Za-z_$][\w$]*$/.test(key)) return at ? `${at}.${key}` : key;
  return `${at}[${quote(key)}]`;
}

/**
 * Checks the basic shape of a report, enough for the merge and the reporters
 * to work and for a clear message naming the first field that is wrong. It
 * is not a schema validator: unknown fields are kept (a later flowrun may
 * add fields without changing schema_version), and `expected`/`actual`
 * values are not looked at.
 */
class Checker {
  object(value: unknown, where: string): Json {
    if (typeof value !== "object" || value === null || Array.isArray(value)) {
      throw new Mismatch(`${where} must be an object, got ${describe(value)}`);
    }
    return value as Json;
  }

  field(object: Json, key: string, where: string): unknown {
    if (!(key in object)) throw new Mismatch(`${where}${key} is missing`);
    return object[key];
  }

  typed(object: Json, key: string, where: string, type: "string" | "number" | "boolean"): void {
    const value = this.field(object, key, where);
    if (typeof value === "number" && type === "number" && !Number.isFinite(value)) {
      // JSON.parse reads 1e999 as Infinity.
      throw new Mismatch(`${where}${key} must be a number, got one beyond ±1.8e308`);
    }
    const actual: string = typeof value;
    if (actual !== type) {
      throw new Mismatch(`${where}${key} must be a ${type}, got ${describe(value)}`);
    }
  }

  /** A duration or offset in milliseconds. */
  millis(object: Json, key: string, where: string, optional = false): void {
    if (optional && object[key] === undefined) return;
    this.typed(object, key, where, "number");
    millisecondsIn(object[key] as number, `${where}${key}`);
  }

  count(object: Json, key: string, where: string): void {
    const value = this.field(object, key, where);
    if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 0) {
      throw new Mismatch(
        `${where}${key} must be a whole number >= 0, got ${shown(value)}`,
      );
    }
  }

  oneOf(object: Json, key: string, where: string, allowed: readonly string[]): void {
    const value = this.field(object, key, where);
    if (typeof value !== "string" || !allowed.includes(value)) {
      throw new Mismatch(
        `${where}${key} must be one of ${allowed.map((a) => `"${a}"`).join(", ")}, got ${
          shown(value)
        }`,
      );
    }
  }

  array(object: Json, key: string, where: string): unknown[] {
    const value = this.field(object, key, where);
    if (!Array.isArray(value)) {
      throw new Mismatch(`${where}${key} must be an array, got ${describe(value)}`);
    }
    return value;
  }

  optionalString(object: Json, key: string, where: string): void {
    if (object[key] !== undefined) this.typed(object, key, where, "string");
  }

  optionalCount(object: Json, key: string, where: string): void {
    if (object[key] !== undefined) this.count(object, key, where);
  }

  /** An optional map of strings (headers). */
  optionalStrings(object: Json, key: string, where: string): void {
    if (object[key] === undefined) return;
    const map = this.object(object[key], `${where}${key}`);
    for (const [name, value] of Object.entries(map)) {
      if (typeof value !== "string") {
        throw new Mismatch(
          `${member(`${where}${key}`, name)} must be a string, got ${describe(value)}`,
        );
      }
    }
  }

  /** An optional W3C trace context: two hex strings. */
  optionalTrace(object: Json, key: string, where: string): void {
    if (object[key] === undefined) return;
    const trace = this.object(object[key], `${where}${key}`);
    this.typed(trace, "trace_id", `${where}${key}.`, "string");
    this.typed(trace, "span_id", `${where}${key}.`, "string");
  }
}

/** How deep a report's values may nest: what flowrun writes stays far below it. */
const MAX_DEPTH = 1000;

/** The largest time span `Date` can hold, in milliseconds. */
const MAX_MILLIS = 8.64e15;

/** Durations and offsets stay within the span of `Date`, so sums of them stay finite. */
function millisecondsIn(value: number, where: string): void {
  if (!(value >= 0 && value <= MAX_MILLIS)) {
    throw new Mismatch(`${where} must be from 0 to 8.64e15 milliseconds, got ${value}`);
  }
}

/** The JSON location of a value nested deeper than MAX_DEPTH, found without recursion. */
function tooDeep(value: unknown): string | undefined {
  const stack: [unknown, string, number][] = [[value, "", 0]];
  while (stack.length > 0) {
    const [v, at, depth] = stack.pop()!;
    if (v === null || typeof v !== "object") continue;
    if (depth >= MAX_DEPTH) return at || "the top level";
    // Locations are long only this deep down, so they are cut as they grow.
    const here = at.length > 100 ? `${at.slice(0, 80)}…` : at;
    if (Array.isArray(v)) v.forEach((item, i) => stack.push([item, `${here}[${i}]`, depth + 1]));
    else {
      for (const [key, item] of Object.entries(v)) {
        stack.push([item, member(here, key), depth + 1]);
      }
    }
  }
  return undefined;
}

const STATUSES = ["passed", "failed", "error", "skipped"] as const;
// An ISO 8601 date-time as `Date.prototype.toISOString` and other tools write it.
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;

function checkReport(value: unknown): void {
  const c = new Checker();
  const report = c.object(value, "the top level");
  const version = c.field(report, "schema_version", "");
  if (version !== REPORT_SCHEMA_VERSION) {
    throw new Mismatch(
      `schema_version is ${
        shown(version)
      }, but this flowrun reads version ${REPORT_SCHEMA_VERSION}`,
      "Merge with the flowrun version that wrote the report, or rerun the shards with this one.",
    );
  }
  c.typed(report, "run_id", "", "string");
  c.typed(report, "runner_version", "", "string");
  c.typed(report, "started_at", "", "string");
  // The merge computes the run's span from started_at, so it must be a time.
  const started = report.started_at as string;
  if (!DATE_TIME.test(started) || Number.isNaN(Date.parse(started))) {
    throw new Mismatch(`started_at must be an ISO 8601 date-time, got ${quote(started)}`);
  }
  c.millis(report, "duration_ms", "");
  c.oneOf(report, "status", "", ["passed", "failed"]);
  c.optionalString(report, "interrupted", "");
  if (report.problems !== undefined) {
    c.array(report, "problems", "").forEach((item, i) => {
      const where = `problems[${i}]`;
      const problem = c.object(item, where);
      for (const key of ["file", "code", "message"]) c.typed(problem, key, `${where}.`, "string");
      c.count(problem, "line", `${where}.`);
      c.count(problem, "column", `${where}.`);
      c.optionalString(problem, "hint", `${where}.`);
    });
  }
  const totals = c.object(c.field(report, "totals", ""), "totals");
  for (const key of ["flows", "steps"]) {
    const counts = c.object(c.field(totals, key, "totals."), `totals.${key}`);
    for (const n of ["total", ...STATUSES]) c.count(counts, n, `totals.${key}.`);
  }
  const assertions = c.object(c.field(totals, "assertions", "totals."), "totals.assertions");
  for (const n of ["total", "passed", "failed"]) c.count(assertions, n, "totals.assertions.");
  c.array(report, "flows", "").forEach((item, i) => {
    const where = `flows[${i}]`;
    const flow = c.object(item, where);
    c.typed(flow, "file", `${where}.`, "string");
    c.typed(flow, "name", `${where}.`, "string");
    c.oneOf(flow, "status", `${where}.`, STATUSES);
    c.typed(flow, "started_at", `${where}.`, "string");
    c.millis(flow, "duration_ms", `${where}.`);
    c.optionalString(flow, "trace_id", `${where}.`);
    checkRerun(c, flow, `${where}.`);
    c.array(flow, "steps", `${where}.`).forEach((item, j) =>
      checkStep(c, item, `${where}.steps[${j}]`)
    );
  });
}

/** A re-run flow's `flaky`, `retries` and earlier runs (`attempts`), each like a flow's steps. */
function checkRerun(c: Checker, flow: Json, at: string): void {
  if (flow.flaky !== undefined) c.typed(flow, "flaky", at, "boolean");
  if (flow.retries !== undefined) c.count(flow, "retries", at);
  if (flow.attempts === undefined) return;
  c.array(flow, "attempts", at).forEach((item, k) => {
    const where = `${at}attempts[${k}]`;
    const attempt = c.object(item, where);
    c.count(attempt, "attempt", `${where}.`);
    c.oneOf(attempt, "status", `${where}.`, STATUSES);
    c.typed(attempt, "started_at", `${where}.`, "string");
    c.millis(attempt, "duration_ms", `${where}.`);
    c.array(attempt, "steps", `${where}.`).forEach((step, j) =>
      checkStep(c, step, `${where}.steps[${j}]`)
    );
  });
}

function checkStep(c: Checker, item: unknown, where: string): void {
  const step = c.object(item, where);
  const at = `${where}.`;
  c.typed(step, "name", at, "string");
  c.oneOf(step, "status", at, STATUSES);
  c.millis(step, "duration_ms", at);
  c.millis(step, "start_ms", at, true);
  checkAttempts(c, step, at);
  c.count(step, "line", at);
  c.count(step, "column", at);
  checkExchange(c, step, at);
  c.optionalTrace(step, "trace", at);
  checkAssertions(c, step, at);
  c.array(step, "captures", at).forEach((name, k) => {
    if (typeof name !== "string") {
      throw new Mismatch(`${at}captures[${k}] must be a string, got ${describe(name)}`);
    }
  });
  c.optionalString(step, "message", at);
  c.optionalString(step, "failure_kind", at);
}

/** A step's attempts: each one's start and status (polling steps), and how many. */
function checkAttempts(c: Checker, step: Json, at: string): void {
  if (step.attempt_starts_ms !== undefined) {
    c.array(step, "attempt_starts_ms", at).forEach((value, k) => {
      const where = `${at}attempt_starts_ms[${k}]`;
      if (typeof value !== "number") {
        throw new Mismatch(`${where} must be a number, got ${describe(value)}`);
      }
      millisecondsIn(value, where);
    });
  }
  if (step.attempt_statuses !== undefined) {
    c.array(step, "attempt_statuses", at).forEach((value, k) => {
      if (value !== null && !Number.isInteger(value)) {
        throw new Mismatch(
          `${at}attempt_statuses[${k}] must be a status code or null, got ${describe(value)}`,
        );
      }
    });
  }
  c.count(step, "attempts", at);
}

/** A step's request and response, each `null` or an object of their fields. */
function checkExchange(c: Checker, step: Json, at: string): void {
  const request = c.field(step, "request", at);
  if (request !== null) {
    const r = c.object(request, `${at}request`);
    c.typed(r, "method", `${at}request.`, "string");
    c.typed(r, "url", `${at}request.`, "string");
    c.optionalStrings(r, "headers", `${at}request.`);
    c.optionalString(r, "body", `${at}request.`);
  }
  const response = c.field(step, "response", at);
  if (response !== null) {
    const r = c.object(response, `${at}response`);
    c.count(r, "status", `${at}response.`);
    c.optionalCount(r, "body_truncated", `${at}response.`);
    c.optionalStrings(r, "headers", `${at}response.`);
    for (const key of ["body", "body_excerpt", "content_type"]) {
      c.optionalString(r, key, `${at}response.`);
    }
  }
}

/** A step's assertions, each with its phase, path, operator, message, outcome and place. */
function checkAssertions(c: Checker, step: Json, at: string): void {
  c.array(step, "assertions", at).forEach((item, k) => {
    const w = `${at}assertions[${k}]`;
    const a = c.object(item, w);
    c.oneOf(a, "phase", `${w}.`, ["assert", "until"]);
    for (const key of ["path", "operator", "message"]) c.typed(a, key, `${w}.`, "string");
    for (const key of ["found", "passed"]) c.typed(a, key, `${w}.`, "boolean");
    c.count(a, "line", `${w}.`);
    c.count(a, "column", `${w}.`);
  });
}

/**
 * Checks a parsed report's shape; throws {@linkcode Mismatch} naming the
 * first field that does not fit.
 *
 * @example
 * ```ts
 * import { checkReportShape, Mismatch } from "./report_shape.ts";
 * try {
 *   checkReportShape({ schema_version: 1, run_id: 7 });
 *   throw new Error("accepted a numeric run_id");
 * } catch (error) {
 *   if (!(error instanceof Mismatch) || !error.message.startsWith("run_id must be")) throw error;
 * }
 * ```
 */
export function checkReportShape(value: unknown): void {
  const deep = tooDeep(value);
  if (deep !== undefined) {
    const where = clipped(deep, 80);
    throw new Mismatch(`${where} nests deeper than ${MAX_DEPTH} levels`);
  }
  checkReport(value);
}

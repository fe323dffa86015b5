/**
 * The status check (`status: 200`, `status: {anyOf: [...]}`, `status: {lt: 400}`):
 * whether the response's status is one of those expected, or within the bounds.
 *
 * @module
 */
import type { StatusBound, StatusCheck } from "../model/flow.ts";
import { boundsText, withinBounds } from "../model/status_bounds.ts";
import type { AssertionResult } from "../model/result.ts";
import { show } from "./json_value.ts";
import {
  ExpressionError,
  render,
  type Scope,
  toText,
  type ValueTemplate,
} from "../expr/template.ts";
import { around, joined, ownWords, told } from "../model/told.ts";

/** A value that is a status code: an integer from 100 to 599, or its text (as `--var` gives). */
function asCode(value: unknown): number | undefined {
  const code = typeof value === "string" && /^\d{3}$/.test(value.trim()) ? Number(value) : value;
  return Number.isInteger(code) && (code as number) >= 100 && (code as number) <= 599
    ? code as number
    : undefined;
}

/**
 * The codes a status check expects: as written, or each expression's value
 * now. Throws `ExpressionError` for a value that is no status code.
 *
 * @example
 * ```ts
 * import { expectedCodes } from "./status_check.ts";
 * import { compileValue } from "../expr/template.ts";
 * const scope = { env: () => undefined, vars: new Map([["want", "401"]]), steps: new Map(), runId: "r" };
 * const check = { operator: "equals" as const, expected: [0], from: [compileValue("${vars.want}")], line: 1, column: 1 };
 * if (expectedCodes(check, scope)[0] !== 401) throw new Error();
 * ```
 */
export function expectedCodes(check: StatusCheck, scope?: Scope): number[] {
  if (!check.from || !scope) return check.expected;
  return check.from.map((template) => codeOf(template, scope));
}

/** An expression's value as a status code; throws `ExpressionError` for one that is none. */
function codeOf(template: ValueTemplate, scope: Scope): number {
  const value = render(template, scope);
  const code = asCode(value);
  if (code !== undefined) return code;
  // The value is what the expression gave: a value of the message, masked where the step shows
  // it; the expression as written and the rest are flowrun's words (a password `status`, `code`).
  const why = around(" is ", told`${show(value)}`, ", not a status code from 100 to 599.");
  if (template.kind === "template") {
    throw new ExpressionError(around(`"${template.template.source}" of "status"`, why, ""));
  }
  throw new ExpressionError(joined(told`"${toText(value)}"`, ownWords(' of "status"'), why));
}

/** The bounds with each expression's value now (a stand-in 0 without a scope). */
function boundsNow(bounds: readonly StatusBound[], scope?: Scope): StatusBound[] {
  return bounds.map((b) => ({
    op: b.op,
    value: b.from && scope ? codeOf(b.from, scope) : b.value,
  }));
}

/** A bounds check's result: `expected` is the bounds as a map (`{lt: 400}`). */
function checkBounds(
  check: StatusCheck,
  status: number,
  phase: AssertionResult["phase"],
  scope?: Scope,
): AssertionResult {
  const bounds = boundsNow(check.bounds ?? [], scope);
  const passed = withinBounds(status, bounds);
  return {
    phase,
    path: "status",
    operator: "bounds",
    expected: Object.fromEntries(bounds.map((b) => [b.op, b.value])),
    actual: status,
    found: true,
    passed,
    message: passed ? `status ${status}` : `status ${status}, expected ${boundsText(bounds)}`,
    line: check.line,
    column: check.column,
  };
}

/**
 * The status check's result.
 *
 * @example
 * ```ts
 * import { checkStatus } from "./status_check.ts";
 * const check = { operator: "equals" as const, expected: [200], line: 4, column: 7 };
 * const result = checkStatus(check, 500, "assert");
 * if (result.message !== "status: expected 200, got 500") throw new Error(result.message);
 * const below = { operator: "bounds" as const, expected: [], bounds: [{ op: "lt" as const, value: 400 }], line: 4, column: 7 };
 * if (checkStatus(below, 500, "assert").message !== "status 500, expected < 400") throw new Error();
 * ```
 */
export function checkStatus(
  check: StatusCheck,
  status: number,
  phase: AssertionResult["phase"],
  scope?: Scope,
): AssertionResult {
  if (check.operator === "bounds") return checkBounds(check, status, phase, scope);
  const codes = expectedCodes(check, scope);
  const passed = codes.includes(status);
  const expected = check.operator === "equals" ? codes[0] : codes;
  const want = check.operator === "equals" ? String(expected) : `one of ${show(expected)}`;
  return {
    phase,
    path: "status",
    operator: check.operator,
    expected,
    actual: status,
    found: true,
    passed,
    message: passed ? `status ${status}` : `status: expected ${want}, got ${status}`,
    line: check.line,
    column: check.column,
  };
}

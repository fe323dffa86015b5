/**
 * The status check (`status: 200`, `status: {anyOf: [...]}`): whether the
 * response's status is one of those expected.
 *
 * @module
 */
import type { StatusCheck } from "../model/flow.ts";
import type { AssertionResult } from "../model/result.ts";
import { show } from "./json_value.ts";
import { ExpressionError, render, type Scope, toText } from "../expr/template.ts";

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
  return check.from.map((template) => {
    const value = render(template, scope);
    const code = asCode(value);
    if (code !== undefined) return code;
    const written = template.kind === "template" ? template.template.source : toText(value);
    throw new ExpressionError(
      `"${written}" of "status" is ${show(value)}, not a status code from 100 to 599.`,
    );
  });
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
 * ```
 */
export function checkStatus(
  check: StatusCheck,
  status: number,
  phase: AssertionResult["phase"],
  scope?: Scope,
): AssertionResult {
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

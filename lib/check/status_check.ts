/**
 * The status check (`status: 200`, `status: {anyOf: [...]}`): whether the
 * response's status is one of those expected.
 *
 * @module
 */
import type { StatusCheck } from "../model/flow.ts";
import type { AssertionResult } from "../model/result.ts";
import { show } from "./json_value.ts";

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
): AssertionResult {
  const passed = check.expected.includes(status);
  const expected = check.operator === "equals" ? check.expected[0] : check.expected;
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

/**
 * Assertions: checks × response → results. Every check of a block is
 * evaluated and reported; a failure is a result with `passed: false` and a
 * message, never an exception. Equality is deep and strict: `5` and `"5"`
 * differ, and the message says the types differ.
 *
 * @module
 */
import { render, type Scope, valueOf } from "./expr.ts";
import type { Checks, Operator, PathCheck, StatusCheck } from "./flow.ts";
import { resolvePath, rootHint } from "./path.ts";
import type { ReceivedResponse } from "./response.ts";
import { jsonHead } from "./json_head.ts";
import type { AssertionResult } from "./result.ts";
import { deepEqual, HEAD_SLACK, jsonType, PLAIN, show } from "./json_value.ts";
import { OPERATOR_TABLE } from "./operators.ts";
import type { Masking } from "./secrets/redactor.ts";

export { deepEqual, jsonType, show };

const MAX_ACTUAL = 2000;

/**
 * Keeps huge values (a whole body) out of reports: past a limit they become a
 * marked excerpt, masked before it is cut.
 */
function compact(value: unknown, display: Masking): unknown {
  if (value === null || typeof value !== "object") {
    return typeof value === "string" && value.length > MAX_ACTUAL
      ? `${display.head(value, MAX_ACTUAL)} (${value.length - MAX_ACTUAL} more characters)`
      : value;
  }
  const { text, total } = jsonHead(value, MAX_ACTUAL + HEAD_SLACK);
  if (total !== undefined && total <= MAX_ACTUAL) return value;
  const more = total === undefined
    ? `more than ${HEAD_SLACK} more characters`
    : `${total - MAX_ACTUAL} more characters`;
  return `${display.head(text, MAX_ACTUAL)} (${more}, truncated)`;
}

/**
 * Applies one operator to a found value. Returns `undefined` when it holds,
 * else what went wrong (the text after "path: "). Each operator is defined
 * once, in {@linkcode OPERATOR_TABLE}.
 *
 * @example
 * ```ts
 * import { applyOperator } from "./assert.ts";
 * if (applyOperator("equals", "pending", "ready") !== 'expected "ready", got "pending"') throw new Error();
 * if (applyOperator("gte", 3, 2) !== undefined) throw new Error();
 * ```
 */
export function applyOperator(
  operator: Operator,
  actual: unknown,
  expected: unknown,
  display: Masking = PLAIN,
): string | undefined {
  return OPERATOR_TABLE[operator].check(actual, expected, display);
}

function checkPath(
  check: PathCheck,
  response: ReceivedResponse,
  scope: Scope,
  phase: AssertionResult["phase"],
  display: Masking,
): AssertionResult {
  const result = evaluatePath(check, response, scope, phase, display);
  // A named check leads its message with its name, in every report.
  return check.name
    ? { ...result, name: check.name, message: `${check.name}: ${result.message}` }
    : result;
}

function evaluatePath(
  check: PathCheck,
  response: ReceivedResponse,
  scope: Scope,
  phase: AssertionResult["phase"],
  display: Masking,
): AssertionResult {
  const expected = render(check.expected, scope);
  const selection = response.select(resolvePath(check.path, (e) => valueOf(e, scope)));
  const base = {
    phase,
    path: check.path.source,
    operator: check.operator,
    expected,
    line: check.line,
    column: check.column,
  };
  if (selection.problem !== undefined) {
    // The document could not be searched (nested too deep): no operator can hold, `exists: false` included.
    return {
      ...base,
      actual: null,
      found: false,
      passed: false,
      message: `${check.path.source}: ${selection.problem}`,
    };
  }
  if (check.operator === "exists") {
    const passed = selection.found === expected;
    const actual = selection.found ? compact(selection.value, display) : null;
    const message = passed
      ? `${check.path.source} ${selection.found ? "exists" : "does not exist"}`
      : selection.found
      ? `${check.path.source}: ${applyOperator("exists", selection.value, false, display)}`
      : `${check.path.source} does not exist${
        selection.bodyNotJson ? " (the response body is not JSON)" : rootHint(check.path)
      }`;
    return { ...base, actual, found: selection.found, passed, message };
  }
  // A wildcard or filter that selects nothing selects an empty list: length 0, equals [] and
  // type array hold on it; a path to one value that is absent matched nothing.
  const empty = !selection.found && !check.path.singular && !selection.bodyNotJson;
  if (check.each && (selection.found || empty)) {
    const values = selection.value as unknown[];
    const failing = values.findIndex((v) =>
      applyOperator(check.operator, v, expected, display) !== undefined
    );
    const problem = failing === -1
      ? undefined
      : applyOperator(check.operator, values[failing], expected, display);
    return {
      ...base,
      actual: compact(failing === -1 ? values : values[failing], display),
      found: selection.found,
      passed: problem === undefined,
      message: problem === undefined
        ? `${check.path.source}: ${check.operator} ${
          show(expected, 80, display)
        } holds for each of ${values.length}`
        : `${check.path.source}: value ${failing + 1} of ${values.length}: ${problem}`,
    };
  }
  if (!selection.found && !empty) {
    const why = selection.bodyNotJson ? " (the response body is not JSON)" : rootHint(check.path);
    return {
      ...base,
      actual: null,
      found: false,
      passed: false,
      message: `${check.path.source}: nothing matched${why}`,
    };
  }
  const problem = applyOperator(check.operator, selection.value, expected, display);
  return {
    ...base,
    actual: compact(selection.value, display),
    found: selection.found,
    passed: problem === undefined,
    message: `${check.path.source}: ${
      problem ?? `${check.operator} ${show(expected, 80, display)} holds`
    }`,
  };
}

function checkStatus(
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

/**
 * Evaluates every check of an `assert` or `loop.until` block against a
 * response. Expected values are resolved against `scope` (they may hold
 * expressions); an unresolvable one throws `ExpressionError`. Values in
 * messages are shortened by `display` (a run passes its redactor, so they are
 * masked before they are cut).
 *
 * @example
 * ```ts
 * import { evaluateChecks } from "./assert.ts";
 * import { loadFlow } from "./load.ts";
 * import { ReceivedResponse } from "./response.ts";
 * const { flow } = loadFlow(
 *   "name: f\nsteps:\n  - name: s\n    request: {url: http://x.test}\n    assert:\n      status: 200\n      json:\n        - {path: $.json.state, equals: ready}\n",
 *   "f.yaml",
 * );
 * const response = new ReceivedResponse(200, {}, '{"state": "pending"}');
 * const scope = { env: () => undefined, vars: new Map(), steps: new Map(), runId: "r" };
 * const [status, state] = evaluateChecks(flow!.steps[0].assert, response, scope, "assert");
 * if (!status.passed || state.passed) throw new Error();
 * if (state.message !== '$.json.state: expected "ready", got "pending"') throw new Error(state.message);
 * ```
 */
export function evaluateChecks(
  checks: Checks,
  response: ReceivedResponse,
  scope: Scope,
  phase: AssertionResult["phase"],
  display: Masking = PLAIN,
): AssertionResult[] {
  const results: AssertionResult[] = [];
  if (checks.status) results.push(checkStatus(checks.status, response.status, phase));
  for (const check of checks.paths) {
    results.push(checkPath(check, response, scope, phase, display));
  }
  return results;
}

/**
 * Assertions: checks × response → results. Every check of a block is
 * evaluated and reported; a failure is a result with `passed: false` and a
 * message, never an exception. Equality is deep and strict: `5` and `"5"`
 * differ, and the message says the types differ.
 *
 * @module
 */
import { render, type Scope } from "./expr.ts";
import type { Checks, Operator, PathCheck, StatusCheck } from "./flow.ts";
import type { ReceivedResponse } from "./response.ts";
import { jsonHead } from "./json_head.ts";
import type { AssertionResult } from "./result.ts";
import { compilePattern, MatchTimeoutError, testPattern } from "./regex.ts";
import { type Masking, Redactor } from "./secrets/redactor.ts";

const MAX_ACTUAL = 2000;

/**
 * Values in messages are shortened by a {@linkcode Masking}: a run passes its
 * redactor, which masks a value before cutting it, since a secret cut short
 * is no longer recognisable. Without one, only JWT-shaped values are masked.
 */
const PLAIN: Masking = new Redactor();

/**
 * Deep equality over JSON values: same type, same members, order of object
 * keys ignored, order of list items kept.
 *
 * @example
 * ```ts
 * import { deepEqual } from "./assert.ts";
 * if (!deepEqual({ a: [1, { b: null }] }, { a: [1, { b: null }] })) throw new Error();
 * if (deepEqual(5, "5")) throw new Error();
 * ```
 */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bs = b as unknown[];
    return a.length === bs.length && a.every((x, i) => deepEqual(x, bs[i]));
  }
  const ak = Object.keys(a);
  const bo = b as Record<string, unknown>;
  return ak.length === Object.keys(bo).length &&
    ak.every((k) => Object.hasOwn(bo, k) && deepEqual((a as Record<string, unknown>)[k], bo[k]));
}

/**
 * The JSON type of a value: string, number, boolean, null, array or object.
 *
 * @example
 * ```ts
 * import { jsonType } from "./assert.ts";
 * if (jsonType([]) !== "array" || jsonType(null) !== "null") throw new Error();
 * ```
 */
export function jsonType(value: unknown): string {
  if (value === null || value === undefined) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}

/**
 * A value as it appears in a message: JSON, shortened past `max` characters.
 *
 * @example
 * ```ts
 * import { show } from "./assert.ts";
 * if (show("a") !== '"a"' || show([1, 2]) !== "[1,2]") throw new Error();
 * ```
 */
export function show(value: unknown, max = 80, display: Masking = PLAIN): string {
  // A little more than is shown, so a secret across the cut is still recognised.
  const text = value === undefined ? "undefined" : jsonHead(value, max + HEAD_SLACK).text;
  return display.shorten(text, max);
}

/** How much JSON beyond a cut is written and masked, so a secret across the cut is seen whole. */
const HEAD_SLACK = 16 * 1024;

function typed(value: unknown, display: Masking): string {
  return `${jsonType(value)} ${show(value, 80, display)}`;
}

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
 * Whether `actual` matches the pattern `source`, or why that could not be
 * told: the pattern is invalid, or the match did not finish within
 * `MATCH_TIME_LIMIT_MS` (a catastrophically backtracking pattern).
 */
function regex(source: string, actual: string): boolean | { problem: string } {
  try {
    return testPattern(source, actual);
  } catch (error) {
    if (error instanceof MatchTimeoutError && error.code === "regex-timeout") {
      return {
        problem: `${error.message} (a pattern with nested quantifiers such as (a+)+ ` +
          `can take exponential time)`,
      };
    }
    if (error instanceof MatchTimeoutError) return { problem: error.message };
    return { problem: `invalid: ${(error as Error).message}` };
  }
}

/** Values from environment variables and run parameters are text; numeric operators accept them as numbers. */
function asNumber(value: unknown): number | undefined {
  if (typeof value === "number") return value;
  if (typeof value === "string" && value.trim() !== "" && Number.isFinite(Number(value))) {
    return Number(value);
  }
  return undefined;
}

const COMPARE: Record<string, [symbol: string, test: (a: number, b: number) => boolean]> = {
  gt: [">", (a, b) => a > b],
  gte: [">=", (a, b) => a >= b],
  lt: ["<", (a, b) => a < b],
  lte: ["<=", (a, b) => a <= b],
};

/**
 * Applies one operator to a found value. Returns `undefined` when it holds,
 * else what went wrong (the text after "path: ").
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
  switch (operator) {
    case "exists":
      return expected === false ? `expected nothing, found ${typed(actual, display)}` : undefined;
    case "type": {
      const ok = expected === "integer" ? Number.isInteger(actual) : jsonType(actual) === expected;
      return ok ? undefined : `expected type ${expected}, got ${typed(actual, display)}`;
    }
    case "equals":
      if (deepEqual(actual, expected)) return undefined;
      return jsonType(actual) === jsonType(expected)
        ? `expected ${show(expected, 80, display)}, got ${show(actual, 80, display)}`
        : `expected ${typed(expected, display)}, got ${typed(actual, display)} (types differ)`;
    case "notEquals":
      return deepEqual(actual, expected)
        ? `expected anything but ${show(expected, 80, display)}, got it`
        : undefined;
    case "matches": {
      if (typeof actual !== "string") {
        return `expected a string matching /${expected}/, got ${typed(actual, display)}`;
      }
      // A pattern from an expression was not checked at load time; a bad one is a failed check.
      const source = String(expected);
      try {
        compilePattern(source);
      } catch (error) {
        return `"matches" needs a valid regular expression, got /${expected}/ (${
          (error as Error).message
        })`;
      }
      const matched = regex(source, actual);
      if (typeof matched === "object") {
        return `could not tell whether ${
          show(actual, 80, display)
        } matches /${expected}/: ${matched.problem}`;
      }
      return matched ? undefined : `${show(actual, 80, display)} does not match /${expected}/`;
    }
    case "anyOf":
      if (!Array.isArray(expected)) return `"anyOf" needs a list, got ${typed(expected, display)}`;
      return expected.some((e) => deepEqual(actual, e))
        ? undefined
        : `expected one of ${show(expected, 80, display)}, got ${show(actual, 80, display)}`;
    case "gt":
    case "gte":
    case "lt":
    case "lte": {
      const [symbol, test] = COMPARE[operator];
      const limit = asNumber(expected);
      if (limit === undefined) {
        return `"${operator}" needs a number, got ${typed(expected, display)}`;
      }
      if (typeof actual !== "number") {
        return `expected a number ${symbol} ${limit}, got ${typed(actual, display)}`;
      }
      return test(actual, limit)
        ? undefined
        : `expected a number ${symbol} ${limit}, got ${actual}`;
    }
    case "contains":
      if (typeof actual === "string" && typeof expected === "string") {
        return actual.includes(expected)
          ? undefined
          : `expected ${show(actual, 80, display)} to contain ${show(expected, 80, display)}`;
      }
      if (Array.isArray(actual)) {
        return actual.some((a) => deepEqual(a, expected))
          ? undefined
          : `expected ${show(actual, 80, display)} to contain ${show(expected, 80, display)}`;
      }
      return `expected a list or a string to contain ${show(expected, 80, display)}, got ${
        typed(actual, display)
      }`;
    case "containsAll": {
      if (!Array.isArray(expected)) {
        return `"containsAll" needs a list, got ${typed(expected, display)}`;
      }
      if (!Array.isArray(actual)) {
        return `expected a list containing ${show(expected, 80, display)}, got ${
          typed(actual, display)
        }`;
      }
      const missing = expected.filter((e) => !actual.some((a) => deepEqual(a, e)));
      return missing.length === 0
        ? undefined
        : `missing ${missing.length} of ${expected.length} expected elements: ${
          missing.map((m) => show(m, 40, display)).join(", ")
        }`;
    }
    case "length": {
      const want = asNumber(expected);
      if (want === undefined) return `"length" needs a number, got ${typed(expected, display)}`;
      const size = typeof actual === "string" || Array.isArray(actual)
        ? actual.length
        : actual !== null && typeof actual === "object"
        ? Object.keys(actual).length
        : undefined;
      if (size === undefined) {
        return `expected something with a length, got ${typed(actual, display)}`;
      }
      return size === want ? undefined : `expected length ${want}, got ${size}`;
    }
  }
}

function checkPath(
  check: PathCheck,
  response: ReceivedResponse,
  scope: Scope,
  phase: AssertionResult["phase"],
  display: Masking,
): AssertionResult {
  const expected = render(check.expected, scope);
  const selection = response.select(check.path);
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
        selection.bodyNotJson ? " (the response body is not JSON)" : ""
      }`;
    return { ...base, actual, found: selection.found, passed, message };
  }
  if (!selection.found) {
    const why = selection.bodyNotJson ? " (the response body is not JSON)" : "";
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
    found: true,
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

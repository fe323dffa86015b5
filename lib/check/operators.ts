/**
 * How each assertion operator checks a value, with its failure message:
 * one entry per operator of the flow format's list (`model/operators.ts`,
 * which also says what each operator's expected value must be), keyed by its
 * `Operator` type so that the two cannot drift apart. Adding an operator:
 * its spelling in `model/operators.ts`, its check here.
 *
 * @module
 */
import { canonicalKey, deepEqual, jsonType, PLAIN, show, typed } from "./json_value.ts";
import { compilePattern, MatchTimeoutError, testPattern } from "../_util/regex.ts";
import { regexReason, SLOW_REGEX } from "../_util/regex_problem.ts";
import type { Masking } from "../model/masking.ts";
import type { Operator } from "../model/operators.ts";

/** A JSON object (not a list, not null). */
const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === "object" && !Array.isArray(v);

export { type Operator, OPERATORS } from "../model/operators.ts";

/**
 * How an operator's message begins when it could not tell (`matches` whose
 * match did not finish in time): such a condition decides no branch.
 *
 * @example
 * ```ts
 * import { UNDECIDED } from "./operators.ts";
 * if (UNDECIDED !== "could not tell") throw new Error();
 * ```
 */
export const UNDECIDED = "could not tell";

/** How one operator checks a value. */
export interface OperatorCheck {
  /** `undefined` when `actual` satisfies the check, else the failure (the text after "path: "). */
  check: (actual: unknown, expected: unknown, display: Masking) => string | undefined;
}

/** Values from environment variables and run parameters are text; numeric operators accept them as numbers. */
function asNumber(value: unknown): number | undefined {
  if (typeof value === "number") return value;
  if (typeof value === "string" && value.trim() !== "" && Number.isFinite(Number(value))) {
    return Number(value);
  }
  return undefined;
}

/**
 * A number, pattern or type name as a message quotes it: a value (it may
 * come from a variable or the response), masked before flowrun's words are
 * put around it, since the reports keep a check's message as flowrun's text.
 */
function quoted(value: unknown, display: Masking): string {
  return display.redact(String(value));
}

/** A pattern as a message quotes it, `/…/`, masked as {@linkcode quoted}. */
function pattern(expected: unknown, display: Masking): string {
  return `/${quoted(expected, display)}/`;
}

/** How many missing elements a `containsAll` failure names; the rest are counted. */
const MAX_MISSING_LISTED = 20;

/** Whether `actual` matches `source`, or why that could not be told (invalid, too slow). */
function regex(
  source: string,
  actual: string,
  display: Masking,
): boolean | { problem: string } {
  try {
    return testPattern(source, actual);
  } catch (error) {
    if (error instanceof MatchTimeoutError && error.code === "regex-timeout") {
      return { problem: `${error.message} (${SLOW_REGEX})` };
    }
    if (error instanceof MatchTimeoutError) return { problem: error.message };
    // The engine's reason quotes the pattern, a value: masked as one where the message is made.
    return { problem: `invalid: ${display.redact(regexReason(error))}` };
  }
}

/** The check of `gt`, `gte`, `lt` and `lte`. */
function compare(
  name: string,
  symbol: string,
  holds: (a: number, b: number) => boolean,
): OperatorCheck {
  return {
    check(actual, expected, display) {
      const limit = asNumber(expected);
      if (limit === undefined) return `"${name}" needs a number, got ${typed(expected, display)}`;
      if (typeof actual !== "number") {
        return `expected a number ${symbol} ${quoted(limit, display)}, got ${
          typed(actual, display)
        }`;
      }
      return holds(actual, limit)
        ? undefined
        : `expected a number ${symbol} ${quoted(limit, display)}, got ${quoted(actual, display)}`;
    },
  };
}

/**
 * Every operator's check.
 *
 * @example
 * ```ts
 * import { OPERATOR_TABLE } from "./operators.ts";
 * import { PLAIN } from "./json_value.ts";
 * if (OPERATOR_TABLE.length.check([1, 2], 2, PLAIN) !== undefined) throw new Error();
 * if (OPERATOR_TABLE.length.check("abc", 2, PLAIN) !== "expected length 2, got 3") throw new Error();
 * ```
 */
export const OPERATOR_TABLE: Readonly<Record<Operator, OperatorCheck>> = {
  exists: {
    check: (actual, expected, display) =>
      expected === false ? `expected nothing, found ${typed(actual, display)}` : undefined,
  },
  truthy: {
    check(actual, expected, display) {
      const truthy = !(actual === false || actual === null || actual === 0 || actual === "");
      if (truthy === (expected !== false)) return undefined;
      return `expected a ${truthy ? "falsy" : "truthy"} value, got ${typed(actual, display)}`;
    },
  },
  type: {
    check(actual, expected, display) {
      const ok = expected === "integer" ? Number.isInteger(actual) : jsonType(actual) === expected;
      return ok
        ? undefined
        : `expected type ${quoted(expected, display)}, got ${typed(actual, display)}`;
    },
  },
  equals: {
    check(actual, expected, display) {
      if (deepEqual(actual, expected)) return undefined;
      return jsonType(actual) === jsonType(expected)
        ? `expected ${show(expected, 80, display)}, got ${show(actual, 80, display)}`
        : `expected ${typed(expected, display)}, got ${typed(actual, display)} (types differ)`;
    },
  },
  notEquals: {
    check: (actual, expected, display) =>
      deepEqual(actual, expected)
        ? `expected anything but ${show(expected, 80, display)}, got it`
        : undefined,
  },
  matches: {
    check(actual, expected, display) {
      if (typeof actual !== "string") {
        return `expected a string matching ${pattern(expected, display)}, got ${
          typed(actual, display)
        }`;
      }
      // A pattern from an expression was not checked at load time; a bad one is a failed check.
      const source = String(expected);
      try {
        compilePattern(source);
      } catch (error) {
        // The engine's reason quotes the pattern, a value: masked as one where the message is made.
        return `"matches" needs a valid regular expression, got ${pattern(expected, display)} (${
          display.redact(regexReason(error))
        })`;
      }
      const matched = regex(source, actual, display);
      if (typeof matched === "object") {
        return `${UNDECIDED} whether ${show(actual, 80, display)} matches ${
          pattern(expected, display)
        }: ${matched.problem}`;
      }
      return matched
        ? undefined
        : `${show(actual, 80, display)} does not match ${pattern(expected, display)}`;
    },
  },
  anyOf: {
    check(actual, expected, display) {
      if (!Array.isArray(expected)) return `"anyOf" needs a list, got ${typed(expected, display)}`;
      return expected.some((e) => deepEqual(actual, e))
        ? undefined
        : `expected one of ${show(expected, 80, display)}, got ${show(actual, 80, display)}`;
    },
  },
  gt: compare("gt", ">", (a, b) => a > b),
  gte: compare("gte", ">=", (a, b) => a >= b),
  lt: compare("lt", "<", (a, b) => a < b),
  lte: compare("lte", "<=", (a, b) => a <= b),
  contains: {
    check(actual, expected, display) {
      const fail = `expected ${show(actual, 80, display)} to contain ${
        show(expected, 80, display)
      }`;
      // A number or boolean in text is found by its text, as chai's `include` finds it.
      const scalar = typeof expected === "number" || typeof expected === "boolean";
      if (typeof actual === "string" && (typeof expected === "string" || scalar)) {
        return actual.includes(String(expected)) ? undefined : fail;
      }
      if (Array.isArray(actual)) {
        return actual.some((a) => deepEqual(a, expected)) ? undefined : fail;
      }
      if (isObject(actual) && isObject(expected)) {
        // An object holds another when it has each of its members, deep-equal (chai's deep include).
        return Object.entries(expected).every(([k, v]) =>
            Object.hasOwn(actual, k) && deepEqual(actual[k], v)
          )
          ? undefined
          : fail;
      }
      return `expected a list or a string to contain ${show(expected, 80, display)}, got ${
        typed(actual, display)
      }`;
    },
  },
  containsAll: {
    check(actual, expected, display) {
      if (!Array.isArray(expected)) {
        return `"containsAll" needs a list, got ${typed(expected, display)}`;
      }
      if (!Array.isArray(actual)) {
        return `expected a list containing ${show(expected, 80, display)}, got ${
          typed(actual, display)
        }`;
      }
      // Keys, not a comparison of every pair: both lists may come from responses.
      const present = new Set(actual.map(canonicalKey));
      const missing = expected.filter((e) => !present.has(canonicalKey(e)));
      const listed = missing.slice(0, MAX_MISSING_LISTED).map((m) => show(m, 40, display));
      const more = missing.length - listed.length;
      return missing.length === 0
        ? undefined
        : `missing ${missing.length} of ${expected.length} expected elements: ${listed.join(", ")}${
          more > 0 ? `, and ${more} more` : ""
        }`;
    },
  },
  length: {
    check(actual, expected, display) {
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
      // The size is a count flowrun made; the length wanted is the expected value.
      return size === want ? undefined : `expected length ${quoted(want, display)}, got ${size}`;
    },
  },
};

/**
 * Applies one operator to a found value. Returns `undefined` when it holds,
 * else what went wrong (the text after "path: "). Each operator is defined
 * once, in {@linkcode OPERATOR_TABLE}.
 *
 * @example
 * ```ts
 * import { applyOperator } from "./operators.ts";
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

/**
 * The assertion operators, each defined once: what its expected value must
 * be, what it means, and how it is evaluated with its failure message. The
 * loader validates with this table, the evaluator runs it, and the flow JSON
 * Schema and the docs' summary table are written from it
 * (`deno run -A scripts/sync_operators.ts`; tests fail when they drift).
 * Adding an operator is one entry here.
 *
 * @module
 */
import { canonicalKey, deepEqual, jsonType, show, typed } from "./json_value.ts";
import { compilePattern, MatchTimeoutError, testPattern } from "../_util/regex.ts";
import type { Masking } from "../secrets/redactor.ts";

/** One operator's definition. */
export interface OperatorSpec {
  /** What it checks, in one sentence: the schema's description and the docs' table. */
  description: string;
  /** What a constant expected value must be, in words (`a number`), or undefined for any value. */
  expects?: string;
  /** Whether a constant expected value is acceptable (expressions are checked when the step runs). */
  accepts?: (value: unknown) => boolean;
  /** A hint for a wrong expected value. */
  hint?: string;
  /** The JSON Schema definition of the expected value (`#/$defs/<name>`), if it is constrained. */
  schemaDef?: string;
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

/** How many missing elements a `containsAll` failure names; the rest are counted. */
const MAX_MISSING_LISTED = 20;

/** Whether `actual` matches `source`, or why that could not be told (invalid, too slow). */
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

function compare(
  name: string,
  symbol: string,
  holds: (a: number, b: number) => boolean,
  words: string,
): OperatorSpec {
  return {
    description:
      `The value is a number ${words} this one (a numeric string from an expression is accepted as the expected value).`,
    expects: "a number",
    accepts: (v) => typeof v === "number",
    hint: `Write the number unquoted: ${name}: 5.`,
    schemaDef: "op_number",
    check(actual, expected, display) {
      const limit = asNumber(expected);
      if (limit === undefined) return `"${name}" needs a number, got ${typed(expected, display)}`;
      if (typeof actual !== "number") {
        return `expected a number ${symbol} ${limit}, got ${typed(actual, display)}`;
      }
      return holds(actual, limit)
        ? undefined
        : `expected a number ${symbol} ${limit}, got ${actual}`;
    },
  };
}

const isList = (v: unknown) => Array.isArray(v);

/**
 * The operators of path assertions, in the order the docs list them; each
 * has its entry in {@linkcode OPERATOR_TABLE} (the compiler holds the two to
 * each other).
 *
 * @example
 * ```ts
 * import { OPERATORS } from "./operators.ts";
 * if (!OPERATORS.includes("containsAll")) throw new Error();
 * ```
 */
export const OPERATORS = [
  "exists",
  "type",
  "equals",
  "notEquals",
  "matches",
  "anyOf",
  "gt",
  "gte",
  "lt",
  "lte",
  "contains",
  "containsAll",
  "length",
] as const;

/** A path assertion operator. */
export type Operator = typeof OPERATORS[number];

/**
 * Every operator's definition.
 *
 * @example
 * ```ts
 * import { OPERATOR_TABLE } from "./operators.ts";
 * import { PLAIN } from "./json_value.ts";
 * if (OPERATOR_TABLE.length.check([1, 2], 2, PLAIN) !== undefined) throw new Error();
 * if (OPERATOR_TABLE.length.check("abc", 2, PLAIN) !== "expected length 2, got 3") throw new Error();
 * if (OPERATOR_TABLE.gte.accepts?.("3") !== false) throw new Error("a constant must be a number");
 * ```
 */
export const OPERATOR_TABLE: Readonly<Record<Operator, OperatorSpec>> = {
  exists: {
    description: "`true`: the path matched something; `false`: it matched nothing.",
    expects: "true or false",
    accepts: (v) => typeof v === "boolean",
    hint: "Write exists: true (it must be there) or exists: false (it must not).",
    schemaDef: "op_exists",
    check: (actual, expected, display) =>
      expected === false ? `expected nothing, found ${typed(actual, display)}` : undefined,
  },
  type: {
    description:
      "The value has this JSON type: `string`, `number`, `integer`, `boolean`, `object`, `array` or `null`.",
    // The loader checks type names itself, to suggest the closest one.
    expects: "a type name",
    schemaDef: "op_type",
    check(actual, expected, display) {
      const ok = expected === "integer" ? Number.isInteger(actual) : jsonType(actual) === expected;
      return ok ? undefined : `expected type ${expected}, got ${typed(actual, display)}`;
    },
  },
  equals: {
    description:
      'The value is deep-equal to this one; no coercion (`5` and `"5"` differ). Any value; `${...}` expressions are resolved first (a string that is exactly one expression keeps the value\'s type).',
    check(actual, expected, display) {
      if (deepEqual(actual, expected)) return undefined;
      return jsonType(actual) === jsonType(expected)
        ? `expected ${show(expected, 80, display)}, got ${show(actual, 80, display)}`
        : `expected ${typed(expected, display)}, got ${typed(actual, display)} (types differ)`;
    },
  },
  notEquals: {
    description:
      "The value is not deep-equal to this one; no coercion. Any value; expressions are resolved first.",
    check: (actual, expected, display) =>
      deepEqual(actual, expected)
        ? `expected anything but ${show(expected, 80, display)}, got it`
        : undefined,
  },
  matches: {
    description:
      "The value is a string matching this regular expression (JavaScript syntax, unanchored: add `^…$` to match the whole string).",
    expects: "a regular expression string",
    accepts: (v) => typeof v === "string",
    schemaDef: "op_matches",
    check(actual, expected, display) {
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
    },
  },
  anyOf: {
    description: "The value deep-equals one of the listed values.",
    expects: "a list",
    accepts: isList,
    hint: "For example: anyOf: [a, b]",
    schemaDef: "op_list",
    check(actual, expected, display) {
      if (!Array.isArray(expected)) return `"anyOf" needs a list, got ${typed(expected, display)}`;
      return expected.some((e) => deepEqual(actual, e))
        ? undefined
        : `expected one of ${show(expected, 80, display)}, got ${show(actual, 80, display)}`;
    },
  },
  gt: compare("gt", ">", (a, b) => a > b, "greater than"),
  gte: compare("gte", ">=", (a, b) => a >= b, "greater than or equal to"),
  lt: compare("lt", "<", (a, b) => a < b, "less than"),
  lte: compare("lte", "<=", (a, b) => a <= b, "less than or equal to"),
  contains: {
    description:
      "The value is a list with an element deep-equal to this one, or a string containing this text. Any value; expressions are resolved first.",
    check(actual, expected, display) {
      const fail = `expected ${show(actual, 80, display)} to contain ${
        show(expected, 80, display)
      }`;
      if (typeof actual === "string" && typeof expected === "string") {
        return actual.includes(expected) ? undefined : fail;
      }
      if (Array.isArray(actual)) {
        return actual.some((a) => deepEqual(a, expected)) ? undefined : fail;
      }
      return `expected a list or a string to contain ${show(expected, 80, display)}, got ${
        typed(actual, display)
      }`;
    },
  },
  containsAll: {
    description: "The value is a list containing every listed element, in any order.",
    expects: "a list",
    accepts: isList,
    hint: "For example: containsAll: [a, b]",
    schemaDef: "op_list",
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
    description: "The value is a list, string or object of this size.",
    expects: "a non-negative integer",
    accepts: (v) => Number.isInteger(v) && (v as number) >= 0,
    hint: "Write the size as a number, unquoted: length: 3.",
    schemaDef: "op_length",
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
      return size === want ? undefined : `expected length ${want}, got ${size}`;
    },
  },
};

/**
 * The assertion operators as the flow format spells them: each one's name,
 * what it means and what its expected value must be. The loader validates
 * with this table, and the flow JSON Schema and the docs' summary table are
 * written from it (`deno run -A scripts/sync_operators.ts`; tests fail when
 * they drift). How each operator checks a value is `OPERATOR_TABLE` in
 * `check/operators.ts`, keyed by the same {@linkcode Operator} type, so an
 * operator added here and not there (or there and not here) fails to compile.
 *
 * Adding an operator: its name and entry here, its check there.
 *
 * @module
 */

/**
 * The operators of path assertions, in the order the docs list them; each
 * has its entry in {@linkcode OPERATOR_SPECS}.
 *
 * @example
 * ```ts
 * import { OPERATORS } from "./operators.ts";
 * if (!OPERATORS.includes("containsAll")) throw new Error();
 * ```
 */
export const OPERATORS = [
  "exists",
  "truthy",
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

/** What the flow format says of one operator. */
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
}

/** The spec of `gt`, `gte`, `lt` and `lte`. */
function numeric(name: string, words: string): OperatorSpec {
  return {
    description:
      `The value is a number ${words} this one (a numeric string from an expression is accepted as the expected value).`,
    expects: "a number",
    accepts: (v) => typeof v === "number",
    hint: `Write the number unquoted: ${name}: 5.`,
    schemaDef: "op_number",
  };
}

const isList = (v: unknown) => Array.isArray(v);

/**
 * Every operator's spec.
 *
 * @example
 * ```ts
 * import { OPERATOR_SPECS } from "./operators.ts";
 * if (OPERATOR_SPECS.gte.accepts?.("3") !== false) throw new Error("a constant must be a number");
 * if (OPERATOR_SPECS.length.expects !== "a non-negative integer") throw new Error();
 * ```
 */
export const OPERATOR_SPECS: Readonly<Record<Operator, OperatorSpec>> = {
  exists: {
    description: "`true`: the path matched something; `false`: it matched nothing.",
    expects: "true or false",
    accepts: (v) => typeof v === "boolean",
    hint: "Write exists: true (it must be there) or exists: false (it must not).",
    schemaDef: "op_exists",
  },
  truthy: {
    description:
      '`true`: the value is there and is not `false`, `null`, `0` or `""` (JavaScript\'s `if (x)`); `false`: it is one of them.',
    expects: "true or false",
    accepts: (v) => typeof v === "boolean",
    hint: "Write truthy: true (there and not false, null, 0 or empty text) or truthy: false.",
    schemaDef: "op_exists",
  },
  type: {
    description:
      "The value has this JSON type: `string`, `number`, `integer`, `boolean`, `object`, `array` or `null`.",
    // The loader checks type names itself, to suggest the closest one.
    expects: "a type name",
    schemaDef: "op_type",
  },
  equals: {
    description:
      'The value is deep-equal to this one; no coercion (`5` and `"5"` differ). Any value; `${...}` expressions are resolved first (a string that is exactly one expression keeps the value\'s type).',
  },
  notEquals: {
    description:
      "The value is not deep-equal to this one; no coercion. Any value; expressions are resolved first.",
  },
  matches: {
    description:
      "The value is a string matching this regular expression (JavaScript syntax, unanchored: add `^…$` to match the whole string).",
    expects: "a regular expression string",
    accepts: (v) => typeof v === "string",
    schemaDef: "op_matches",
  },
  anyOf: {
    description: "The value deep-equals one of the listed values.",
    expects: "a list",
    accepts: isList,
    hint: "For example: anyOf: [a, b]",
    schemaDef: "op_list",
  },
  gt: numeric("gt", "greater than"),
  gte: numeric("gte", "greater than or equal to"),
  lt: numeric("lt", "less than"),
  lte: numeric("lte", "less than or equal to"),
  contains: {
    description:
      "The value is a list with an element deep-equal to this one, a string containing this text or number, or an object with its members, deep-equal. Any value; expressions are resolved first.",
  },
  containsAll: {
    description: "The value is a list containing every listed element, in any order.",
    expects: "a list",
    accepts: isList,
    hint: "For example: containsAll: [a, b]",
    schemaDef: "op_list",
  },
  length: {
    description: "The value is a list, string or object of this size.",
    expects: "a non-negative integer",
    accepts: (v) => Number.isInteger(v) && (v as number) >= 0,
    hint: "Write the size as a number, unquoted: length: 3.",
    schemaDef: "op_length",
  },
};

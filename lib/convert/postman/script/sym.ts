/**
 * What a script expression means when it can be told without running it: a
 * path into the response (`JSON.parse(responseBody).user` is
 * `$.json.user`), the length of one, a condition flowrun can check
 * (`x.hasOwnProperty('id')` is `{path: $.json.id, exists: true}`), a value
 * known now (a literal; a variable nothing sets is `undefined`), or a
 * Postman variable read at run time. Anything else is `undefined`: the
 * statement using it is left untranslated.
 *
 * @module
 */

import { table } from "../../table.ts";
import { arithmetic } from "./arithmetic.ts";
import { noneEqual } from "./none_equal.ts";
import { textAbsent } from "./text_absent.ts";

/** A check on the response, as flowrun writes it: a path, an operator, its operand. */
export interface Cond {
  path: string;
  op: string;
  value: unknown;
}

/** A check that holds when the value is not there or is not equal to `value` (chai's `not.equal`). */
export const NOT_EQUAL_IF_THERE = "notEqualsIfThere";

/** One local's made value (share.ts): `text` is its flow expression, `local` the script's name. */
export interface Share {
  local: string;
  text: string;
}

/** A symbolic value. */
export type Sym =
  | { k: "path"; path: string }
  | { k: "len"; path: string }
  | { k: "cond"; conds: Cond[] }
  /**
   * A value known now; `from` the variables whose text in the collection's files it was worked out
   * from (`pw.charAt(0) + 1`), so the summary can say a `--var` given when running misses it.
   */
  | { k: "lit"; value: unknown; from?: string[] }
  /**
   * A variable; `row` when it is a data file's column every row gives, or a value a script
   * made, of a kind it always has (data_row.ts); `file` the text the collection's files give it,
   * when the flow reads it from them (no secret, no environment variable, nothing set before).
   */
  | {
    k: "var";
    name: string;
    expr: string;
    row?: "integer" | "number" | "boolean" | "value";
    file?: string;
    /** `String(x)`, `x.toString()` (to_text.ts): a comparison reads the value as text. */
    text?: true;
  }
  /**
   * A value made at run time (`Date.now()`, `{{$guid}}`), as flow expression
   * text; `moment` for a moment.js object, whose methods moment.ts reads, `date` for a
   * JavaScript `Date` (date_local.ts); `shares` for the values a script's locals hold in it
   * (share.ts); `fixed` when a random draw in it is taken at its least, the same in every run
   * (`moment().add(_.random(1, 30), "days")`: a day on), which the summary says.
   */
  | { k: "gen"; text: string; moment?: true; date?: true; fixed?: true; shares?: Share[] }
  /**
   * The first match of a JSONPath filter (`list.find(…)`, pick.ts), or with
   * `list` all its matches (`list.filter(…)`): only a capture reads one.
   */
  | { k: "pick"; path: string; list?: boolean }
  /** Text joined with `+` from literals, variables and response parts (concat.ts). */
  | { k: "cat"; parts: Sym[] }
  /**
   * A value cut from a header or the body by a pattern (cut.ts): a `match`'s
   * groups, a `split`'s parts, or one `value` (the pattern's first group).
   */
  | { k: "cut"; path: string; stage: "match" | "split" | "value"; regex?: string; sep?: string }
  /** A variable's value read as a number (`Number(x)`, number_of.ts): only a comparison reads one. */
  | { k: "num"; expr: string }
  /**
   * `list.map(x => x.f)` (mapped.ts): one member (`at`, `@.f`) of each element of the list at
   * `path`, or with `length` its length; only chai's words on it read one.
   */
  | { k: "mapped"; path: string; at: string; length?: true };

const NEGATED = table<string>({
  equals: "notEquals",
  notEquals: "equals",
  gt: "lte",
  lte: "gt",
  gte: "lt",
  lt: "gte",
  lengthGt: "lengthLte",
  lengthLte: "lengthGt",
  lengthGte: "lengthLt",
  lengthLt: "lengthGte",
});

/**
 * The condition that holds when `c` does not, if flowrun can say it.
 *
 * @example
 * ```ts
 * import { negate } from "./sym.ts";
 * if (negate({ path: "$.json.a", op: "exists", value: true })?.value !== false) throw new Error();
 * if (negate({ path: "$.json.a", op: "matches", value: "x" }) !== undefined) throw new Error();
 * if (negate({ path: "$.body", op: "contains", value: "SQL" })?.op !== "matches") throw new Error();
 * ```
 */
export function negate(c: Cond): Cond | undefined {
  if (c.op === "exists") return { ...c, value: !c.value };
  if (c.op === "truthy") return { ...c, op: "falsy" };
  if (c.op === "falsy") return { ...c, op: "truthy" };
  // No element equal to it in a list, or, on text, a pattern finding it nowhere.
  if (c.op === "contains") return noneEqual(c) ?? textAbsent(c);
  const op = NEGATED[c.op];
  return op ? { ...c, op } : undefined;
}

/**
 * A JSONPath member: `.name` when it is a plain name, else `['name']`.
 *
 * @example
 * ```ts
 * import { member } from "./sym.ts";
 * if (member("$.json", "user") !== "$.json.user" || member("$.json", "a-b") !== "$.json['a-b']") throw new Error();
 * if (member("$.json.items", 0) !== "$.json.items[0]") throw new Error();
 * ```
 */
export function member(path: string, name: string | number): string {
  if (typeof name === "number") return `${path}[${name}]`;
  if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) return `${path}.${name}`;
  return `${path}['${name.replace(/\\/g, "\\\\").replace(/'/g, "\\'")}']`;
}

/**
 * A literal as a check's operand: flowrun reads every string in a check as
 * a template, so a `${` the script compares as text is written `$${`
 * (nested in arrays and objects too); numbers, booleans and null are kept.
 *
 * @example
 * ```ts
 * import { flowText } from "./sym.ts";
 * if (flowText("${api.name}") !== "$${api.name}" || flowText(2) !== 2) throw new Error();
 * if ((flowText(["${a}"]) as string[])[0] !== "$${a}") throw new Error();
 * ```
 */
export function flowText(value: unknown): unknown {
  if (typeof value === "string") return value.replaceAll("${", () => "$${");
  if (Array.isArray(value)) return value.map(flowText);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, flowText(v)]));
}

/**
 * A name among a check's values (of a property, a header): the text as the
 * script wrote it, undoing {@linkcode flowText}'s `$${`.
 *
 * @example
 * ```ts
 * import { flowText, named } from "./sym.ts";
 * if (named(flowText("x-${id}") as string) !== "x-${id}") throw new Error();
 * ```
 */
export const named = (v: string): string => v.replaceAll("$${", () => "${");

/**
 * Whether a path is a pseudo-path (`typeof x`, `x.indexOf(v)`, the status's reason),
 * no JSONPath: only a comparison pseudo.ts reads makes a check of it.
 *
 * @example
 * ```ts
 * import { isPseudo } from "./sym.ts";
 * if (!isPseudo("reason:$.status") || isPseudo("$.json.a")) throw new Error();
 * ```
 */
export const isPseudo = (path: string): boolean =>
  /^(?:typeof|indexOf|reason|moment|day|text|lower|upper):/.test(path);

/**
 * The conditions a value stands for when used as a test's result or an `if`'s
 * test: a condition itself, a length (non-empty), a path (truthy), a known
 * value (`true`/`false`, as a constant).
 *
 * @example
 * ```ts
 * import { truthy } from "./sym.ts";
 * const c = truthy({ k: "len", path: "$.json.items" });
 * if (c === undefined || typeof c === "boolean" || c[0].path !== "$.json.items[0]") throw new Error();
 * ```
 */
export function truthy(s: Sym | undefined): Cond[] | boolean | undefined {
  if (!s) return undefined;
  switch (s.k) {
    case "cond":
      return s.conds;
    case "len":
      return [{ path: `${s.path}[0]`, op: "exists", value: true }];
    case "path":
      // JavaScript's truthiness, which flowrun writes as checks (see checks_yaml.ts).
      return isPseudo(s.path) ? undefined : [{ path: s.path, op: "truthy", value: true }];
    case "lit":
      return Boolean(s.value);
    case "cut":
      // `if (m)` of a match (or its group): there when the pattern matches what it is cut from;
      // a split's part may be empty where its pattern matches.
      return s.sep !== undefined || s.regex === undefined
        ? undefined
        : [{ path: s.path, op: "matches", value: s.regex }];
    default:
      return undefined;
  }
}

/**
 * `!s`: the negated condition (one condition only: flowrun has no "not all of").
 *
 * @example
 * ```ts
 * import { not } from "./sym.ts";
 * const s = not({ k: "cond", conds: [{ path: "$.status", op: "equals", value: 200 }] });
 * if (s?.k !== "cond" || s.conds[0].op !== "notEquals") throw new Error();
 * ```
 */
export function not(s: Sym | undefined): Sym | undefined {
  const t = truthy(s);
  if (typeof t === "boolean") return { k: "lit", value: !t };
  if (!t || t.length !== 1) return undefined;
  const n = negate(t[0]);
  return n ? { k: "cond", conds: [n] } : undefined;
}

/**
 * Comparisons of a length with a number. Other than equality flowrun has no
 * operator for them: `lengthGt` and its kin are written out by
 * checks_yaml.ts, on a list's elements or as a pattern on a string's length.
 */
function lengthCond(path: string, op: string, n: number): Cond[] | undefined {
  if (!Number.isInteger(n) || n < 0) return undefined;
  switch (op) {
    case "===":
    case "==":
      return [{ path, op: "length", value: n }];
    case ">":
      return [{ path, op: "lengthGt", value: n }];
    case ">=":
      return n === 0 ? [] : [{ path, op: "lengthGte", value: n }];
    case "<":
      return n === 0 ? undefined : [{ path, op: "lengthLt", value: n }];
    case "<=":
      return [{ path, op: "lengthLte", value: n }];
  }
  return undefined;
}

const COMPARE = table<string>({
  "===": "equals",
  "==": "equals",
  "!==": "notEquals",
  "!=": "notEquals",
  ">": "gt",
  ">=": "gte",
  "<": "lt",
  "<=": "lte",
});
const FLIP: Record<string, string> = { ">": "<", ">=": "<=", "<": ">", "<=": ">=" };

/** The operand of a comparison: a literal's value, or a variable's expression text. */
function operand(s: Sym): { value: unknown } | undefined {
  if (s.k === "lit") return { value: flowText(s.value) };
  if (s.k === "var") return { value: s.expr };
  return undefined;
}

/**
 * `a OP b` where one side is on the response and the other known: a condition.
 *
 * @example
 * ```ts
 * import { compare } from "./sym.ts";
 * const s = compare("===", { k: "path", path: "$.status" }, { k: "lit", value: 200 });
 * if (s?.k !== "cond" || s.conds[0].op !== "equals" || s.conds[0].value !== 200) throw new Error();
 * ```
 */
export function compare(op: string, a: Sym, b: Sym): Sym | undefined {
  if (a.k === "lit" && b.k === "lit") return litCompare(op, a.value, b.value);
  if (a.k === "path" && b.k === "path" && a.path === b.path) return samePath(op, a.path);
  if ((a.k === "lit" || a.k === "var") && (b.k === "path" || b.k === "len")) {
    return compare(FLIP[op] ?? op, b, a);
  }
  const known = operand(b);
  if (!known) return undefined;
  if (a.k === "len") return lengthCompare(a.path, op, known.value);
  return a.k === "path" ? pathCompare(a.path, op, known.value) : undefined;
}

function lengthCompare(path: string, op: string, value: unknown): Sym | undefined {
  const conds = typeof value === "number" ? lengthCond(path, op, value) : undefined;
  return conds ? { k: "cond", conds } : undefined;
}

function pathCompare(path: string, op: string, value: unknown): Sym | undefined {
  if (!COMPARE[op]) return undefined;
  if (value === undefined) {
    if (op !== "===" && op !== "!==") return undefined;
    return { k: "cond", conds: [{ path, op: "exists", value: op === "!==" }] };
  }
  if (/^[<>]/.test(op) && typeof value !== "number") return undefined;
  return { k: "cond", conds: [{ path, op: COMPARE[op], value }] };
}

/**
 * A value compared with the variable just set from it (`get('token') ===
 * user.token`): it holds whenever the value is there, which is what the
 * capture needs. Two different parts of the response: number_of.ts.
 */
function samePath(op: string, path: string): Sym | undefined {
  if (op !== "===" && op !== "==") return undefined;
  return { k: "cond", conds: [{ path, op: "exists", value: true }] };
}

function litCompare(op: string, a: unknown, b: unknown): Sym | undefined {
  // Not a comparison: arithmetic on two numbers known now (`price * 2`) is its value.
  const worked = arithmetic(op, a, b);
  if (worked) return { k: "lit", value: worked.value };
  switch (op) {
    case "===":
      return { k: "lit", value: a === b };
    case "!==":
      return { k: "lit", value: a !== b };
  }
  return undefined;
}

/**
 * `path[key]`: a member, an element, a header (by its lower-case name), or the length.
 *
 * @example
 * ```ts
 * import { pathMember } from "./sym.ts";
 * if (pathMember("$.headers", "X-Id")?.k !== "path" || pathMember("$.json", "length")?.k !== "len") throw new Error();
 * ```
 */
export function pathMember(path: string, key: unknown): Sym | undefined {
  if (key === "length") return { k: "len", path };
  if (typeof key === "string") {
    return { k: "path", path: member(path, path === "$.headers" ? key.toLowerCase() : key) };
  }
  const index = typeof key === "number" && Number.isInteger(key) && key >= 0;
  return index ? { k: "path", path: member(path, key as number) } : undefined;
}

/**
 * Comparisons a flow's plain checks cannot hold, said with the operators that can: a Postman
 * variable read as a number (`Number(pm.environment.get("id"))`), and two parts of one answer
 * compared with each other (`json.count === json.data.length`).
 *
 * A variable's value is known only when the flow runs, and may be a JSON number (a capture of an
 * answer's number) or text (a header, an environment file, a `--var`): `equals` would compare it
 * as it is, where the script compares its number. `gte` and `lte` read a numeric text as its
 * number, so the two of them hold exactly when the value found is that number, as
 * `eql(Number(x))` does.
 *
 * A flow's check compares a part of the answer with a value; it cannot read a part of the same
 * answer. A JSONPath filter can: `$.json[?$.json.count == length($.json.data)]` selects the body's
 * members when the two are equal and nothing when not, so `exists: true` on it is the check.
 *
 * @module
 */
import { compare, type Cond, type Sym } from "./sym.ts";
import { rowNumber } from "./data_row.ts";
import { knownNumber } from "./known_number.ts";

/**
 * `Number(x)`, `parseFloat(x)`, `parseInt(x)` and `parseInt(x, 10)` of a Postman variable whose
 * value is known only when the flow runs: the variable read as a number. Another radix, or a
 * value other than a variable, is `undefined` (a data file's column: data_row.ts).
 *
 * @example
 * ```ts
 * import { numberOf } from "./number_of.ts";
 * const x = { k: "var" as const, name: "id", expr: "${steps.a.capture.id}" };
 * if (numberOf("Number", x)?.k !== "num") throw new Error();
 * if (numberOf("parseInt", x, { k: "lit", value: 16 }) !== undefined) throw new Error();
 * ```
 */
export function numberOf(callee: string, first?: Sym, radix?: Sym): Sym | undefined {
  if (first?.k !== "var" || first.row) return undefined;
  if (callee === "Number" || callee === "parseFloat") return { k: "num", expr: first.expr };
  const decimal = radix === undefined || (radix.k === "lit" && radix.value === 10);
  return callee === "parseInt" && decimal ? { k: "num", expr: first.expr } : undefined;
}

/**
 * `Number(x)` and its kin as the script means them: a data file's column or a made number itself
 * (data_row.ts), the number of a value known now (known_number.ts), else a variable read as a
 * number ({@linkcode numberOf}).
 *
 * @example
 * ```ts
 * import { numberMade } from "./number_of.ts";
 * const x = { k: "var" as const, name: "n", expr: "${vars.n}", row: "number" as const };
 * if (numberMade("Number", x) !== x || numberMade("Number", { ...x, row: undefined })?.k !== "num") throw new Error();
 * ```
 */
export function numberMade(callee: string, first?: Sym, radix?: Sym): Sym | undefined {
  return rowNumber(callee, first, radix) ?? knownNumber(callee, first, radix) ??
    numberOf(callee, first, radix);
}

/**
 * `a OP b` where a plain check cannot say it: two parts of one answer, or a part and a variable's
 * number, either side first. `undefined` for anything else.
 *
 * @example
 * ```ts
 * import { comparedParts } from "./number_of.ts";
 * const s = comparedParts("===", { k: "num", expr: "${vars.id}" }, { k: "path", path: "$.json.id" });
 * if (s?.k !== "cond" || s.conds[0].op !== "gte") throw new Error(JSON.stringify(s));
 * ```
 */
export function comparedParts(op: string, a: Sym, b: Sym): Sym | undefined {
  const [part, num, flipped] = b.k === "num" ? [a, b, op] : [b, a, FLIP[op] ?? op];
  const conds = partsCompared(op, a, b) ??
    (num.k === "num" && part.k === "path" ? numberChecks(part.path, flipped, num.expr) : undefined);
  return conds ? { k: "cond", conds } : undefined;
}

const FLIP: Record<string, string> = { ">": "<", ">=": "<=", "<": ">", "<=": ">=" };

/**
 * `a OP b` as a condition: what sym.ts's `compare` says, else {@linkcode comparedParts}.
 *
 * @example
 * ```ts
 * import { comparison } from "./number_of.ts";
 * const s = comparison("===", { k: "path", path: "$.json.a" }, { k: "path", path: "$.json.b" });
 * if (s?.k !== "cond" || s.conds[0].path !== "$.json[?$.json.a == $.json.b]") throw new Error();
 * ```
 */
export function comparison(op: string, a: Sym, b: Sym): Sym | undefined {
  return compare(op, a, b) ?? comparedParts(op, a, b);
}

/** The operators a number is compared with, by the script's operator or chai word. */
const NUMBER_OPS: Record<string, string[]> = {
  "===": ["gte", "lte"],
  "==": ["gte", "lte"],
  equal: ["gte", "lte"],
  equals: ["gte", "lte"],
  eq: ["gte", "lte"],
  eql: ["gte", "lte"],
  eqls: ["gte", "lte"],
  ">": ["gt"],
  above: ["gt"],
  gt: ["gt"],
  greaterThan: ["gt"],
  ">=": ["gte"],
  least: ["gte"],
  gte: ["gte"],
  "<": ["lt"],
  below: ["lt"],
  lt: ["lt"],
  lessThan: ["lt"],
  "<=": ["lte"],
  most: ["lte"],
  lte: ["lte"],
};

/**
 * The checks that `path OP number` makes, where the number is a variable's (`numberOf`);
 * `undefined` for an operator no check says (a negated equality: no "not both").
 *
 * @example
 * ```ts
 * import { numberChecks } from "./number_of.ts";
 * const c = numberChecks("$.json.id", "eql", "${vars.id}");
 * if (c?.length !== 2 || c[0].op !== "gte" || c[1].op !== "lte") throw new Error(JSON.stringify(c));
 * if (numberChecks("$.json.id", "!==", "${vars.id}") !== undefined) throw new Error();
 * ```
 */
export function numberChecks(path: string, op: string, expr: string): Cond[] | undefined {
  const ops = Object.hasOwn(NUMBER_OPS, op) ? NUMBER_OPS[op] : undefined;
  if (!ops || !path.startsWith("$.")) return undefined;
  return ops.map((o) => ({ path, op: o, value: expr }));
}

/** One side of a comparison inside a filter: a part, or a part's length. */
function side(s: Sym): { text: string; base?: string } | undefined {
  if (s.k === "path" && /^\$\.(json|status|headers)\b/.test(s.path)) return { text: s.path };
  if (s.k === "len" && s.path.startsWith("$.json")) {
    // `x.length` throws in the script when `x` is not there; the filter asks that it is.
    return { text: `length(${s.path})`, base: s.path };
  }
  return undefined;
}

/**
 * `a === b` (or `!==`) of two parts of one answer as one check: a filter on the body that
 * selects something only when the comparison holds. `undefined` when a side is no part.
 *
 * @example
 * ```ts
 * import { partsCompared } from "./number_of.ts";
 * const c = partsCompared("===", { k: "path", path: "$.json.count" }, { k: "len", path: "$.json.data" });
 * if (c?.[0].path !== "$.json[?$.json.count == length($.json.data) && $.json.data]") throw new Error(c?.[0].path);
 * ```
 */
export function partsCompared(op: string, a: Sym, b: Sym): Cond[] | undefined {
  const equal = op === "===" || op === "==";
  if (!equal && op !== "!==" && op !== "!=") return undefined;
  const [x, y] = [side(a), side(b)];
  if (!x || !y) return undefined;
  const bases = [x.base, y.base].filter((p) => p !== undefined).map((p) => ` && ${p}`).join("");
  const test = `${x.text} ${equal ? "==" : "!="} ${y.text}${bases}`;
  return [{ path: `$.json[?${test}]`, op: "exists", value: true }];
}

const EQUAL_WORDS = new Set(["equal", "equals", "eq", "eql", "eqls"]);

/**
 * The checks a chai word called on `subject` with `arg` makes when `arg` is a variable's number
 * or another part of the answer (`pm.expect(json.id).to.eql(Number(id))`,
 * `pm.expect(json.count).to.eql(json.data.length)`); `undefined` for any other argument.
 *
 * @example
 * ```ts
 * import { calledWith } from "./number_of.ts";
 * const c = calledWith({ k: "path", path: "$.json.a" }, "eql", true, { k: "path", path: "$.json.b" });
 * if (c?.[0].path !== "$.json[?$.json.a != $.json.b]") throw new Error(JSON.stringify(c));
 * ```
 */
export function calledWith(
  subject: Sym,
  word: string,
  negated: boolean,
  arg: Sym,
): Cond[] | undefined {
  if (arg.k === "num") {
    return subject.k === "path" && !negated
      ? numberChecks(subject.path, word, arg.expr)
      : undefined;
  }
  if (!EQUAL_WORDS.has(word)) return undefined;
  if (arg.k === "var" && arg.text && subject.k === "path" && subject.path.startsWith("text:")) {
    return negated ? undefined : partTextEquals(subject.path.slice("text:".length), arg.expr);
  }
  if (arg.k === "var" && arg.text) {
    return subject.k === "path" ? textEquals(subject.path, arg.expr, negated) : undefined;
  }
  return partsCompared(negated ? "!==" : "===", subject, arg);
}

/**
 * `path === String(x)` (or `!==` when `negated`): a part compared strictly with a variable's
 * value as text. A flow's `equals` compares a captured number as a number; inside a quoted
 * string of a JSONPath filter the value is text, so a filter on the body selects something
 * exactly when the part is that text (a part below the body: the body then has members).
 *
 * @example
 * ```ts
 * import { textEquals } from "./number_of.ts";
 * const c = textEquals("$.json.code", "${vars.id}", false);
 * if (c?.[0].path !== "$.json[?$.json.code == '${vars.id}']" || c[0].value !== true) throw new Error(JSON.stringify(c));
 * ```
 */
export function textEquals(path: string, expr: string, negated: boolean): Cond[] | undefined {
  if (!/^\$\.json[.[]/.test(path)) return undefined;
  return [{ path: `$.json[?${path} == '${expr}']`, op: "exists", value: !negated }];
}

/**
 * `String(part) === x`, `x` a variable known to hold text (captured `as: string`): the part is
 * that text, or the number the text writes (unquoted in a filter, a variable's numeric text is a
 * number: `String(41)` is `"41"`). A filter on the body selects something exactly then; a part
 * not there selects nothing, where the script throws. Its negation stays a comment: JSONPath's
 * `!=` holds for a part not there, where the script throws.
 *
 * @example
 * ```ts
 * import { partTextEquals } from "./number_of.ts";
 * const c = partTextEquals("$.json.id", "${vars.id}");
 * if (c?.[0].path !== "$.json[?$.json.id == '${vars.id}' || $.json.id == ${vars.id}]") throw new Error(JSON.stringify(c));
 * if (partTextEquals("$.status", "${vars.id}") !== undefined) throw new Error();
 * ```
 */
export function partTextEquals(path: string, expr: string): Cond[] | undefined {
  if (!/^\$\.json[.[]/.test(path)) return undefined;
  return [{
    path: `$.json[?${path} == '${expr}' || ${path} == ${expr}]`,
    op: "exists",
    value: true,
  }];
}

/**
 * `list.map(x => x.f)` on a list of the answer, as scripts make the list of one field of each
 * element to check it with chai's list words: `pm.expect(json.map(b => b.id)).to.include(id)`.
 * In a flow that is a JSONPath over the list's elements (`$.json[*].id`) or a filter on them
 * (`$.json[?@.id == …]`), always with the list's type (map throws on anything but a list).
 *
 * The two differ where an element lacks the field: map keeps `undefined` at its index, JSONPath
 * skips it. So a length is the list's own (`$.json`), never the count of fields found; an
 * inclusion of a value is the same either way (no value equals `undefined`), and
 * `include(undefined)`, a deeper member (`x.a.b` throws where `x.a` is missing) and a negated
 * inclusion of a variable (whose type is known only when the flow runs) are not translated.
 *
 * @module
 */
import type { Node } from "./parse.ts";
import { type Cond, flowText, member, type Sym } from "./sym.ts";

/**
 * The expression a one-parameter function returns: `x => e` or `function (x) { return e; }`.
 *
 * @example
 * ```ts
 * import { returned } from "./mapped.ts";
 * import { parseScript } from "./parse.ts";
 * const p = parseScript("f(function (b) { return b.id; })");
 * if (!p.ok || returned(p.program.body[0].expression.arguments[0])?.param !== "b") throw new Error();
 * ```
 */
export function returned(fn: Node | undefined): { param: string; body: Node } | undefined {
  if (!fn || (fn.type !== "ArrowFunctionExpression" && fn.type !== "FunctionExpression")) {
    return undefined;
  }
  const param = fn.params.length === 1 && fn.params[0].type === "Identifier"
    ? fn.params[0].name as string
    : undefined;
  if (!param) return undefined;
  if (fn.body.type !== "BlockStatement") return { param, body: fn.body };
  const [only] = fn.body.body;
  return fn.body.body.length === 1 && only.type === "ReturnStatement" && only.argument
    ? { param, body: only.argument }
    : undefined;
}

/**
 * `path.map(x => x.f)` (or `x["f"]`, or `function (x) { return x.f; }`): the list of each
 * element's `f`; `undefined` for any other function.
 *
 * @example
 * ```ts
 * import { mapCall } from "./mapped.ts";
 * import { parseScript } from "./parse.ts";
 * const p = parseScript("json.map(b => b['id'])");
 * if (!p.ok) throw new Error();
 * const m = mapCall("$.json", p.program.body[0].expression.arguments[0]);
 * if (m?.k !== "mapped" || m.at !== "@.id") throw new Error(JSON.stringify(m));
 * ```
 */
export function mapCall(path: string, fn: Node | undefined): Sym | undefined {
  const f = returned(fn);
  const body = f?.body;
  if (!f || body?.type !== "MemberExpression") return undefined;
  if (body.object.type !== "Identifier" || body.object.name !== f.param) return undefined;
  const key = body.computed
    ? (body.property.type === "Literal" ? body.property.value : undefined)
    : body.property.name;
  return typeof key === "string" ? { k: "mapped", path, at: member("@", key) } : undefined;
}

/** One link of a chai chain: a word, and its arguments when it is called. */
export interface ChainLink {
  word: string;
  args?: Node[];
}

const FILLER = new Set(
  "to be been is that which and has have with of does still deep itself should".split(" "),
);
const INCLUDE = new Set(["include", "includes", "contain", "contains"]);
const LENGTH_OPS: Record<string, string> = {
  ...Object.fromEntries(["equal", "equals", "eq", "eql", "eqls"].map((w) => [w, "length"])),
  ...Object.fromEntries(["above", "gt", "greaterThan"].map((w) => [w, "lengthGt"])),
  ...Object.fromEntries(["below", "lt", "lessThan"].map((w) => [w, "lengthLt"])),
  ...Object.fromEntries(["least", "gte"].map((w) => [w, "lengthGte"])),
  ...Object.fromEntries(["most", "lte"].map((w) => [w, "lengthLte"])),
};

/** A value as a JSONPath filter writes it; `undefined` for one it cannot (`${`, an object). */
function filterLiteral(v: unknown): string | undefined {
  if (typeof v === "string") {
    return v.includes("${") ? undefined : `'${v.replace(/\\/g, "\\\\").replace(/'/g, "\\'")}'`;
  }
  if (typeof v === "number") return Number.isFinite(v) ? String(v) : undefined;
  return typeof v === "boolean" || v === null ? String(v) : undefined;
}

/** `include(v)` (or `not.include(v)`) on the mapped list, as one check. */
function included(m: { path: string; at: string }, arg: Sym, negated: boolean): Cond | undefined {
  const each = `${m.path}[*]${m.at.slice(1)}`;
  // An expression unquoted in a filter is read as a literal: a variable's text as its number,
  // which is what `Number(x)` compares (strictly, as chai's include does).
  const filter = (lit: string): Cond => ({
    path: `${m.path}[?${m.at} == ${lit}]`,
    op: "exists",
    value: !negated,
  });
  if (arg.k === "num") return filter(arg.expr);
  // `String(x)`: quoted, the value is text in the filter, as `String` makes it.
  if (arg.k === "var" && arg.text) return filter(`'${arg.expr}'`);
  // A variable as it is (a captured number stays one): a flow's `contains` is deep equality.
  if (arg.k === "var") return negated ? undefined : { path: each, op: "contains", value: arg.expr };
  if (arg.k !== "lit" || filterLiteral(arg.value) === undefined) return undefined;
  return negated ? filter(filterLiteral(arg.value)!) : {
    path: each,
    op: "contains",
    value: flowText(arg.value),
  };
}

/**
 * The checks a chai chain makes on a mapped list (`include`, `contain`, `not.include`,
 * `lengthOf`, `length(n)`, `an("array")`, and `eql(n)`, `above(n)`, … on its `length`), each
 * with the list's type; `undefined` when it cannot be said exactly.
 *
 * @example
 * ```ts
 * import { mappedChecks } from "./mapped.ts";
 * import { parseScript } from "./parse.ts";
 * const p = parseScript("id");
 * if (!p.ok) throw new Error();
 * const args = [p.program.body[0].expression];
 * const m = { k: "mapped" as const, path: "$.json", at: "@.id" };
 * const c = mappedChecks(m, [{ word: "to" }, { word: "not" }, { word: "include", args }], () => ({ k: "num", expr: "${vars.id}" }));
 * if (c?.[1].path !== "$.json[?@.id == ${vars.id}]" || c[1].value !== false) throw new Error(JSON.stringify(c));
 * ```
 */
export function mappedChecks(
  m: { path: string; at: string; length?: true },
  links: ChainLink[],
  value: (node: Node) => Sym | undefined,
): Cond[] | undefined {
  const said = chainWord(links);
  const arg = said && value(said.arg);
  if (!said || !arg) return undefined;
  const array: Cond = { path: m.path, op: "type", value: "array" };
  const one = INCLUDE.has(said.word) && !m.length
    ? included(m, arg, said.negated)
    : said.negated
    ? undefined
    : sized(m, said.word, arg);
  return one && (one === true ? [array] : [array, one]);
}

/** The one called word of a chain, past filler words and `not`s; `undefined` for more or none. */
function chainWord(links: ChainLink[]): { word: string; arg: Node; negated: boolean } | undefined {
  let negated = false;
  const words: ChainLink[] = [];
  for (const l of links) {
    if (!l.args && l.word === "not") negated = !negated;
    else if (l.args || !FILLER.has(l.word)) words.push(l);
  }
  const [only] = words;
  // A missing argument is `undefined`, which no check of a list says.
  return words.length === 1 && only.args?.length
    ? { word: only.word, arg: only.args[0], negated }
    : undefined;
}

/**
 * `an("array")` (true: the type alone), `lengthOf(n)`, and on `ids.length` a comparison: the
 * list's own length (an element without `f` is one of it).
 */
function sized(
  m: { path: string; length?: true },
  word: string,
  arg: Sym,
): Cond | true | undefined {
  const v = arg.k === "lit" ? arg.value : undefined;
  if (!m.length && (word === "a" || word === "an")) {
    return (typeof v === "string" && v.toLowerCase() === "array") || undefined;
  }
  const op = m.length ? LENGTH_OPS[word] : ["lengthOf", "length"].includes(word) ? "length" : "";
  // `gte(0)`, `lt(0)`: no element to look at (checks_yaml.ts); left as written.
  const bounded = op === "lengthGte" || op === "lengthLt" ? (v as number) >= 1 : true;
  return op && Number.isInteger(v) && bounded ? { path: m.path, op, value: v } : undefined;
}

/**
 * `ids.includes(v)` on a mapped list (`pm.expect(ids.includes(Number(x))).to.be.true`): the
 * condition `include(v)` checks; `undefined` where that is not said.
 *
 * @example
 * ```ts
 * import { mappedIncludes } from "./mapped.ts";
 * const s = mappedIncludes({ path: "$.json", at: "@.id" }, { k: "lit", value: 3 });
 * if (s?.k !== "cond" || s.conds[1].path !== "$.json[*].id") throw new Error(JSON.stringify(s));
 * ```
 */
export function mappedIncludes(
  m: { path: string; at: string; length?: true },
  arg: Sym | undefined,
): Sym | undefined {
  const one = !m.length && arg ? included(m, arg, false) : undefined;
  return one && { k: "cond", conds: [{ path: m.path, op: "type", value: "array" }, one] };
}

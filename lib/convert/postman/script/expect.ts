/**
 * Chai chains as Postman scripts write them: `pm.expect(x).to.have.property('id')`,
 * `pm.expect(x).to.eql(…)`, `pm.response.to.have.status(200)`,
 * `pm.response.to.have.header('Content-Type')`, … → the checks they make
 * (what each `pm.response.to` word checks: response.ts).
 *
 * @module
 */
import { dotted, type EvalContext, evaluate } from "./eval.ts";
import { settled } from "./pseudo.ts";
import { mappedChecks } from "./mapped.ts";
import { variableText } from "./concat.ts";
import type { Node } from "./parse.ts";
import { regexOf } from "./regex_held.ts";
import { responseWord } from "./response.ts";
import { schemaCheck } from "./schema.ts";
import { turnedEquality } from "./turned_expect.ts";
import { allSettled, pickedChecks } from "./picked_expect.ts";
import { assertsNothing } from "./bare_expect.ts";
import { calledWith } from "./number_of.ts";
import { propertyCond } from "./array_member.ts";
import {
  type Cond,
  flowText,
  isPseudo,
  member,
  named,
  negate,
  NOT_EQUAL_IF_THERE,
  type Sym,
} from "./sym.ts";
import { table } from "../../table.ts";

/** One link of a chain: a word, and its arguments when it is called. */
interface Link {
  word: string;
  args?: Node[];
}

/** The chain under `node` down to its root call (`pm.expect(x)`) or root name (`pm.response`). */
function unchain(node: Node): { root: Node; links: Link[] } {
  const links: Link[] = [];
  let at = node;
  for (let i = 0; i < 64; i++) {
    if (at.type === "CallExpression" && isName(at.callee, "pm", "expect")) break;
    if (isName(at, "pm", "response")) break;
    if (
      at.type === "CallExpression" && at.callee.type === "MemberExpression" && !at.callee.computed
    ) {
      links.unshift({ word: at.callee.property.name, args: at.arguments });
      at = at.callee.object;
    } else if (at.type === "MemberExpression" && !at.computed) {
      links.unshift({ word: at.property.name });
      at = at.object;
    } else break;
  }
  return { root: at, links };
}

const FILLER = new Set(
  ("to be been is that which and has have with at of same does still deep own all an_ itself " +
    "should").split(" "),
);
const TYPE_NAMES = new Set(["string", "number", "boolean", "object", "array", "null"]);
const NUMERIC = table<string>({
  above: "gt",
  gt: "gt",
  greaterThan: "gt",
  below: "lt",
  lt: "lt",
  lessThan: "lt",
  least: "gte",
  gte: "gte",
  most: "lte",
  lte: "lte",
});

interface State {
  subject: Sym;
  negated: boolean;
  out: Cond[];
  /** `include`/`contain`/`any` said before `keys(…)`: at least those keys, or any of them. */
  keys?: "include" | "any";
}

function push(s: State, cond: Cond): boolean {
  const c = s.negated ? negate(cond) : cond;
  if (!c) return false;
  s.out.push(c);
  return true;
}

/** One whole flow expression (a variable's value); a literal's `${` is written `$${`. */
const isExpression = (v: unknown): v is string => typeof v === "string" && /^\$\{[^{}]+\}$/.test(v);

/** A length subject's operators; `undefined` when the word is not one of them. */
function onLength(s: State, path: string, word: string, value: unknown): boolean | undefined {
  if (EQUAL_WORDS.has(word)) {
    // A number, or a variable's value (one whole expression, `${vars.n}`) the runner reads as one.
    const known = typeof value === "number" || isExpression(value);
    return known && !s.negated && push(s, { path, op: "length", value });
  }
  if (typeof value !== "number") return false;
  const op = NUMERIC[word];
  if (!op || !Number.isInteger(value)) return undefined;
  const index = op === "gt" ? value : op === "gte" ? value - 1 : op === "lt" ? value - 1 : value;
  if (index < 0) return op === "gte";
  // Written out by checks_yaml.ts, for a list or a string (see lengthCond in sym.ts).
  return push(s, { path, op: `length${op[0].toUpperCase()}${op.slice(1)}`, value });
}

type Handler = (s: State, path: string, values: unknown[]) => boolean;

const equal: Handler = (s, path, [v]) => {
  if (v === undefined) return push(s, { path, op: "exists", value: false });
  // `not.equal(v)` holds on a value that is not there, as chai's does (`undefined` is no `v`).
  if (!s.negated || isPseudo(path) || !path.startsWith("$.")) {
    return push(s, { path, op: "equals", value: v });
  }
  s.out.push({ path, op: NOT_EQUAL_IF_THERE, value: v });
  return true;
};
const typed: Handler = (s, path, [v]) =>
  typeof v === "string" && TYPE_NAMES.has(v.toLowerCase()) && !s.negated &&
  push(s, { path, op: "type", value: v.toLowerCase() });
/** An operator chai has but flowrun has no negation of: only when not negated. */
const positive =
  (op: string, fits: (v: unknown) => boolean = () => true): Handler => (s, path, [v]) =>
    !s.negated && fits(v) && push(s, { path, op, value: v });
/** `include(v)`, negated where sym.ts's `negate` can say it; `include(undefined)` looks for nothing. */
const included: Handler = (s, path, [v]) =>
  v !== undefined && push(s, { path, op: "contains", value: v });
const isNumber = (v: unknown) => typeof v === "number";
const numeric = (op: string): Handler => (s, path, [v]) =>
  typeof v === "number" && push(s, { path, op, value: v });
const propertyOf: Handler = (s, path, values) => {
  const [v] = values;
  if (typeof v !== "string") return false;
  const at = member(path, named(v));
  s.subject = { k: "path", path: at };
  return push(s, propertyCond(path, at, values, s.negated));
};
/**
 * `keys("a", "b")` (or one list): `have.keys`/`have.all.keys` are exactly
 * those (each there, and as many keys), `include.keys`/`contain.all.keys` at
 * least those; `any.keys` and a negation cannot be said as flowrun checks.
 */
const keysOf: Handler = (s, path, values) => {
  const names = values.length === 1 && Array.isArray(values[0]) ? values[0] : values;
  if (s.negated || s.keys === "any" || names.length === 0) return false;
  if (!names.every((n) => typeof n === "string")) return false;
  for (const n of names) {
    push(s, { path: member(path, named(n as string)), op: "exists", value: true });
  }
  return s.keys === "include" || push(s, { path, op: "length", value: names.length });
};
const within: Handler = (s, path, [low, high]) =>
  !s.negated && typeof low === "number" && typeof high === "number" &&
  push(s, { path, op: "gte", value: low }) && push(s, { path, op: "lte", value: high });

const INCLUDE_WORDS = new Set(["include", "includes", "contain", "contains"]);

/** Called chai words on a value, by name. */
const CALLED = new Map<string, Handler>([
  ...["equal", "equals", "eq", "eql", "eqls"].map((w) => [w, equal] as const),
  ["a", typed],
  ["an", typed],
  ...["include", "includes", "contain", "contains", "string"].map((w) => [w, included] as const),
  ["members", positive("containsAll", Array.isArray)],
  ["lengthOf", positive("length", isNumber)],
  ["length", positive("length", isNumber)],
  ["oneOf", positive("anyOf", Array.isArray)],
  ["property", propertyOf],
  ["ownProperty", propertyOf],
  ["haveOwnProperty", propertyOf],
  ["keys", keysOf],
  ["key", keysOf],
  // chai's `jsonSchema` on the body, as the response's own (its schema's text not a template).
  ["jsonSchema", (s, path, [v]) => schemaCheck(path, v)?.every((c) => push(s, c)) ?? false],
  ["within", within],
  ["closeTo", (s, path, [v, d]) => isNumber(v) && isNumber(d) && within(s, path, [v - d, v + d])],
  ...Object.entries(NUMERIC).map(([w, op]) => [w, numeric(op)] as const),
]);

/** Applies one called word; false when it cannot be said. */
function called(s: State, word: string, values: unknown[]): boolean {
  const subject = s.subject;
  if (subject.k === "len") return onLength(s, subject.path, word, values[0]) ?? false;
  // `pm.expect(found).to.eql(true)`: chai compares strictly, as `.true` does, so it is that word.
  if (subject.k === "cond") {
    const [v] = values;
    return EQUAL_WORDS.has(word) && typeof v === "boolean" && onCondition(s, subject.conds, `${v}`);
  }
  if (subject.k !== "path") return false;
  return CALLED.get(word)?.(s, subject.path, values) ?? false;
}

type Word = (s: State, path: string) => boolean;

const is = (op: string, value: unknown): Word => (s, path) => push(s, { path, op, value });
const empty: Word = (s, path) => {
  if (!s.negated) return push(s, { path, op: "length", value: 0 });
  // `not.empty`: none of the empty string, list and object (flowrun has no "length not 0").
  s.negated = false;
  return ["", [], {}].every((value) => push(s, { path, op: "notEquals", value }));
};
const toLength: Word = (s, path) => {
  s.subject = { k: "len", path };
  return true;
};

/** Chai words that check a value without being called, by name. */
const WORDS = new Map<string, Word>([
  ["true", is("equals", true)],
  ["false", is("equals", false)],
  ["null", is("equals", null)],
  ["undefined", is("exists", false)],
  ["exist", is("exists", true)],
  ["ok", is("truthy", true)],
  ["empty", empty],
  ["length", toLength],
  ["lengthOf", toLength],
]);

/**
 * `pm.expect(tv4.validate(data, schema)).to.be.true`: the condition itself;
 * `pm.expect(pm.cookies.has("sid")).to.be.false` (or `not.true`, `not.ok`): its negation,
 * where one condition has one (a schema's has none).
 */
function onCondition(s: State, conds: Cond[], word: string): boolean {
  if (word !== "true" && word !== "ok" && word !== "false") return false;
  const holds = (word === "false") === s.negated;
  const negated = !holds && conds.length === 1 ? negate(conds[0]) : undefined;
  if (!holds && !negated) return false;
  s.out.push(...(negated ? [negated] : conds));
  return true;
}

/** Applies one property word (`not`, `true`, `empty`, …); false when it cannot be said. */
function property(s: State, word: string): boolean {
  if (FILLER.has(word)) return true;
  if (INCLUDE_WORDS.has(word) || word === "any") {
    // Only `keys(…)` may follow: `include` as a word of its own says nothing else here.
    s.keys = word === "any" ? "any" : "include";
    return true;
  }
  if (word === "not") {
    s.negated = !s.negated;
    return true;
  }
  const subject = s.subject;
  if (subject.k === "cond") return onCondition(s, subject.conds, word);
  if (subject.k !== "path") return false;
  return WORDS.get(word)?.(s, subject.path) ?? false;
}

/**
 * The literal values of a call's arguments, or `undefined` when one is not
 * known now. A literal is flow text (`${` written `$${`: it becomes a check's
 * operand, which flowrun reads as a template) unless `asText` is false; a
 * variable is its expression.
 */
function literalArgs(args: Node[], ctx: EvalContext, asText = true): unknown[] | undefined {
  const out: unknown[] = [];
  for (const a of args) {
    const re = regexOf(a, ctx); // `/re/`, or a `const` holding one (regex_held.ts)
    if (re) {
      if (re.regex.flags !== "") return undefined;
      out.push({ regex: re.regex.pattern });
      continue;
    }
    const s = evaluate(a, ctx, 1);
    if (s?.k === "lit") out.push(asText ? flowText(s.value) : s.value);
    else if (s && variableText(s) !== undefined) out.push(variableText(s));
    else return undefined;
  }
  return out;
}

const EQUAL_WORDS = new Set(["equal", "equals", "eq", "eql", "eqls"]);

/**
 * `pm.expect(json.token).to.eql(token)` where the script just set `token`
 * from `json.token`: it holds whenever the value is there (what the capture
 * needs), so it is that check.
 */
function sameValue(s: State, link: Link, ctx: EvalContext): boolean {
  if (!EQUAL_WORDS.has(link.word) || s.negated || s.subject.k !== "path") return false;
  const arg = link.args?.length === 1 ? evaluate(link.args[0], ctx, 1) : undefined;
  if (arg?.k !== "path" || arg.path !== s.subject.path) return false;
  return push(s, { path: arg.path, op: "exists", value: true });
}

/** `eql(Number(x))`, `eql(json.other)`: a variable's number, another part (number_of.ts). */
function comparedWith(s: State, link: Link, ctx: EvalContext): boolean {
  const arg = link.args?.length === 1 ? evaluate(link.args[0], ctx, 1) : undefined;
  const checks = arg && calledWith(s.subject, link.word, s.negated, arg);
  if (checks) s.out.push(...checks);
  return checks !== undefined;
}

/** `pm.expect([401, 403]).to.include(pm.response.code)`: the value is one of the list's. */
function listIncludes(s: State, link: Link, ctx: EvalContext): boolean {
  const list = s.subject.k === "lit" ? s.subject.value : undefined;
  if (!Array.isArray(list) || s.negated || !INCLUDE_WORDS.has(link.word)) return false;
  const one = evaluate(link.args![0], ctx, 1);
  return one?.k === "path" && push(s, { path: one.path, op: "anyOf", value: list });
}

function run(s: State, links: Link[], ctx: EvalContext): Cond[] | undefined {
  for (const link of links) {
    if (!link.args) {
      if (!property(s, link.word)) return undefined;
      continue;
    }
    if (sameValue(s, link, ctx)) continue;
    if (listIncludes(s, link, ctx)) continue;
    if (comparedWith(s, link, ctx)) continue;
    const values = literalArgs(link.args, ctx, link.word !== "jsonSchema");
    if (!values) return undefined;
    const re = values[0] as { regex?: string } | undefined;
    if (link.word === "match" && s.subject.k === "path" && typeof re?.regex === "string") {
      const value = flowText(re.regex);
      if (s.negated || !push(s, { path: s.subject.path, op: "matches", value })) {
        return undefined;
      }
      continue;
    }
    if (!called(s, link.word, values)) return undefined;
  }
  // No word after `pm.expect(x)`: it asserts nothing (bare_expect.ts).
  return s.out.length > 0 ? s.out : assertsNothing(s.subject, links.length);
}

/**
 * The checks a `pm.expect(…)` chain makes, `undefined` when not every part
 * can be said; `null` when `node` is no `pm.expect` chain at all.
 *
 * @example
 * ```ts
 * import { expectChecks } from "./expect.ts";
 * import { parseScript } from "./parse.ts";
 * const p = parseScript("pm.expect(pm.response.json().args).to.have.property('source').and.equal('x')");
 * const ctx = { scope: new Map(), tests: new Map(), variable: () => ({ k: "lit" as const, value: undefined }) };
 * const c = p.ok ? expectChecks(p.program.body[0].expression, ctx) : null;
 * if (!c || c[1].path !== "$.json.args.source" || c[1].value !== "x") throw new Error(JSON.stringify(c));
 * ```
 */
export function expectChecks(node: Node, ctx: EvalContext): Cond[] | undefined | null {
  const { root, links } = unchain(node);
  if (root.type === "CallExpression" && isName(root.callee, "pm", "expect")) {
    // `pm.expect(pm.response).to.have.status(400)`: chai-postman's words, as `pm.response.to`'s.
    const onResponse = root.arguments[0] && isName(root.arguments[0], "pm", "response");
    if (onResponse && links[0]?.word === "to") return responseChecks(links.slice(1), ctx);
    const keys = keysLength(root.arguments[0], links, ctx);
    if (keys !== null) return keys;
    // `pm.expect(known).to.eql(part)`: read as `pm.expect(part).to.eql(known)` (turned_expect.ts).
    const turned = turnedEquality(root.arguments[0], links, ctx);
    const subject = turned?.subject ??
      (root.arguments[0] ? evaluate(root.arguments[0], ctx, 1) : undefined);
    if (!subject) return undefined;
    const chain = turned?.links ?? links;
    if (subject.k === "mapped") return mappedChecks(subject, chain, (n) => evaluate(n, ctx, 1));
    const one = (s: Sym) => run({ subject: s, negated: false, out: [] }, chain, ctx)?.map(settled);
    return allSettled(pickedChecks(subject, one) ?? one(subject)); // a find's pick: picked_expect.ts
  }
  if (isName(root, "pm", "response") && links[0]?.word === "to") {
    return responseChecks(links.slice(1), ctx);
  }
  return null;
}

/** `pm.expect(Object.keys(x)).to.lengthOf(n)` (`length(n)`): its keys' count; else `null`. */
function keysLength(arg: Node | undefined, links: Link[], ctx: EvalContext) {
  const keys = arg?.type === "CallExpression" && dotted(arg.callee) === "Object.keys";
  if (!keys) return null;
  const of = evaluate(arg.arguments[0], ctx, 1);
  const last = links.at(-1);
  const sized = last?.args && (last.word === "lengthOf" || last.word === "length") &&
    links.slice(0, -1).every((l) => !l.args && FILLER.has(l.word));
  if (of?.k !== "path" || !sized) return undefined;
  const s: State = { subject: { k: "len", path: of.path }, negated: false, out: [] };
  return run(s, [{ word: "equal", args: last.args }], ctx);
}

function isName(node: Node, object: string, property: string): boolean {
  return node.type === "MemberExpression" && !node.computed && node.object.type === "Identifier" &&
    node.object.name === object && node.property.name === property;
}

/** `pm.response.to.…`: status, ok, header, json, body. */
function responseChecks(links: Link[], ctx: EvalContext): Cond[] | undefined {
  const words = links.filter((l) => !FILLER.has(l.word));
  const negated = words[0]?.word === "not";
  if (words.length !== (negated ? 2 : 1)) return undefined;
  const { word, args } = words[words.length - 1];
  // A schema is not a template: its strings are kept as written.
  const values = args ? literalArgs(args, ctx, word !== "jsonSchema") : [];
  return values ? responseWord(word, values, negated, args !== undefined) : undefined;
}

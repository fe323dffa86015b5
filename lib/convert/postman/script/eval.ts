/**
 * Evaluates a script expression to a {@linkcode Sym}: what it means on the
 * response, in both the `pm.*` API and the legacy sandbox (`responseBody`,
 * `responseCode.code`, `responseHeaders`, `responseTime`,
 * `postman.getEnvironmentVariable`, `environment.x`).
 *
 * @module
 */
import { heldMember } from "./object_member.ts";
import { isPick, pickCall, pickMember } from "./pick.ts";
import { mappedIncludes } from "./mapped.ts";
import { anyCut, cutMember } from "./cut_text.ts";
import { either, fileText, knownMember, literalText } from "./either.ts";
import { helperCall } from "./helper_call.ts";
import { libraryCall, replaceIn } from "./library.ts";
import { asText, concat, generated, sharesOf } from "./concat.ts";
import { MAX_SCRIPT_DEPTH } from "../limits.ts";
import { schemaCheck } from "./schema.ts";
import type { Node } from "./parse.ts";
import { pseudo } from "./pseudo.ts";
import { ownHeader, type OwnRequest, ownRequest } from "./own_request.ts";
import { madeBy, momentCall, plusDate, secondsCall } from "./made.ts";
import { randomMade } from "./random_cut.ts";
import { dateCall, isoDay, newDate } from "./date_local.ts";
import { constructorCheck } from "./constructor_type.ts";
import { CALLS, cond, pathOf } from "./calls.ts";
import { METHODS, PICKED, regexTest, variableArg } from "./part_methods.ts";
import { type HeldRegexes, regexOf } from "./regex_held.ts";
import { foldedIncludes } from "./case_fold.ts";
import { rowComparison } from "./data_row.ts";
import { comparison, numberMade } from "./number_of.ts";
import { type Cond, isPseudo, member, not, pathMember, type Sym, truthy } from "./sym.ts";
import { table } from "../../table.ts";
import { scopeOf, VARIABLE_GETTERS, type VarScope } from "../scopes.ts";

/** A local's declaration (`node` its initializer) or assignment (`node` the assignment). */
export interface Kept {
  name: string;
  node: Node;
  assigned?: true;
}

/** What an expression is evaluated against. */
export interface EvalContext extends OwnRequest, HeldRegexes {
  /** The script's own `var`/`let`/`const` names; `undefined`: declared but not understood. */
  scope: Map<string, Sym | undefined>;
  /** The conditions each `tests["…"]` was given, for `if (tests["…"])`. */
  tests: Map<string, Cond[]>;
  /**
   * A Postman variable read at run time (its flow expression; a literal `undefined` when nothing
   * sets it), or `undefined` when a script set it in a way not translated: its value is unknown.
   */
  variable(name: string, scope?: VarScope): Sym | undefined;
  /** The object literal each `const` name was declared with, for a call that reads its fields. */
  objects?: Map<string, Node>;
  /** What the script's locals were declared and assigned with, in order (counter.ts replays it). */
  kept?: Kept[];
  /** The request's own JSON body as an object literal when it holds variables (body_object.ts). */
  ownBody?: Node;
  /** The helper functions the script declares (helper_call.ts), by name. */
  functions?: Map<string, Node>;
}

/**
 * The dotted name of a member chain of plain names (`pm.response.code`), else `undefined`.
 *
 * @example
 * ```ts
 * import { dotted } from "./eval.ts";
 * import { parseScript } from "./parse.ts";
 * const p = parseScript("pm.response.code");
 * if (!p.ok || dotted(p.program.body[0].expression) !== "pm.response.code") throw new Error();
 * ```
 */
export function dotted(node: Node): string | undefined {
  if (node.type === "Identifier") return node.name;
  if (node.type !== "MemberExpression" || node.computed) return undefined;
  const head = dotted(node.object);
  return head === undefined ? undefined : `${head}.${node.property.name}`;
}

/** Names whose value is a part of the response. */
const RESPONSE_NAMES = table<string>({
  "responseCode.code": "$.status",
  "pm.response.code": "$.status",
  // The reason phrase ("OK"): read only where compared with a reason (pseudo.ts).
  "pm.response.status": "reason:$.status",
  "responseCode.name": "reason:$.status",
  "responseBody": "$.body",
  "responseTime": "$.duration_ms",
  "pm.response.responseTime": "$.duration_ms",
  "responseHeaders": "$.headers",
});

/**
 * The meaning of `node`, or `undefined` when it cannot be told.
 *
 * @example
 * ```ts
 * import { evaluate } from "./eval.ts";
 * import { parseScript } from "./parse.ts";
 * const p = parseScript("JSON.parse(responseBody).user.token");
 * const ctx = { scope: new Map(), tests: new Map(), variable: () => ({ k: "lit" as const, value: undefined }) };
 * const s = p.ok ? evaluate(p.program.body[0].expression, ctx, 0) : undefined;
 * if (s?.k !== "path" || s.path !== "$.json.user.token") throw new Error(JSON.stringify(s));
 * ```
 */
export function evaluate(node: Node, ctx: EvalContext, depth: number): Sym | undefined {
  if (depth > MAX_SCRIPT_DEPTH) return undefined;
  const d = depth + 1;
  const operator = OPERATORS[node.type];
  if (operator) return operator(node, ctx, d);
  switch (node.type) {
    case "Literal":
      return node.regex ? undefined : { k: "lit", value: node.value };
    case "TemplateLiteral":
      return node.expressions.length === 0
        ? { k: "lit", value: node.quasis[0].value.cooked }
        : template(node, ctx, d);
    case "Identifier":
      return identifier(node.name, ctx);
    case "MemberExpression":
      return memberOf(node, ctx, d);
    case "ChainExpression":
      // `json?.data?.id` (Portman writes it): a missing part is as a path that selects nothing.
      return evaluate(node.expression, ctx, d);
    case "CallExpression":
      return call(node, ctx, d);
    case "ArrayExpression":
    case "ObjectExpression":
      return literalValue(node, ctx, d);
  }
  return undefined;
}

/** Expressions of operators, by node type: each reads its operands itself. */
const OPERATORS: Record<string, (node: Node, ctx: EvalContext, d: number) => Sym | undefined> = {
  UnaryExpression: unary,
  BinaryExpression: binary,
  LogicalExpression: logical,
  ConditionalExpression: conditional,
  NewExpression: (node, ctx, d) => newDate(node, (n) => evaluate(n, ctx, d)),
};

function identifier(name: string, ctx: EvalContext): Sym | undefined {
  if (ctx.scope.has(name)) return ctx.scope.get(name);
  if (name === "undefined") return { k: "lit", value: undefined };
  const response = RESPONSE_NAMES[name];
  return response ? { k: "path", path: response } : undefined;
}

/** A member chain that names something of its own: a response part, a variable, a test's result. */
function namedMember(node: Node, ctx: EvalContext, d: number): Sym | undefined | null {
  const name = dotted(node);
  if (name && RESPONSE_NAMES[name] && !ctx.scope.has(name.split(".")[0])) {
    return { k: "path", path: RESPONSE_NAMES[name] };
  }
  if (name?.startsWith("pm.") && !ctx.scope.has("pm")) {
    const own = ownRequest(name, ctx);
    if (own !== null) return own;
  }
  const env = name?.match(/^(environment|globals|data)\.(.+)$/);
  if (env && !ctx.scope.has(env[1])) return ctx.variable(env[2], scopeOf(`${env[1]}.get`));
  if (node.computed && node.object.type === "Identifier" && node.object.name === "tests") {
    const key = evaluate(node.property, ctx, d);
    const conds = key?.k === "lit" ? ctx.tests.get(String(key.value)) : undefined;
    return conds ? { k: "cond", conds } : undefined;
  }
  return isoDay(node, (n) => evaluate(n, ctx, d));
}

function memberOf(node: Node, ctx: EvalContext, d: number): Sym | undefined {
  const named = namedMember(node, ctx, d);
  if (named !== null) return named;
  if (heldMember(node, ctx)) return evaluate(heldMember(node, ctx)!, ctx, d); // object_member.ts
  const base = evaluate(node.object, ctx, d);
  const key = node.computed
    ? evaluate(node.property, ctx, d)
    : { k: "lit", value: node.property.name };
  if (isPick(base) && key?.k === "lit") return pickMember(base, key.value);
  if (base?.k === "cut") return cutMember(base, key?.k === "lit" ? key.value : undefined);
  // `Object.keys(x).length`: an object's size is its keys' count (a list's and a text's alike).
  const keysOf = node.object.type === "CallExpression" &&
    dotted(node.object.callee) === "Object.keys";
  if (keysOf && key?.k === "lit" && key.value === "length") {
    const of = evaluate(node.object.arguments[0], ctx, d);
    return of?.k === "path" ? { k: "len", path: of.path } : undefined;
  }
  if (key?.k !== "lit") return undefined;
  // A value known now (a literal, a file's text) has JavaScript's members; others, none known.
  return base?.k === "path"
    ? pathMember(base.path, key.value)
    : knownMember(fileText(base), key.value);
}

function args(node: Node, ctx: EvalContext, d: number): (Sym | undefined)[] {
  return node.arguments.map((a: Node) => evaluate(a, ctx, d));
}

/** Calls that read their arguments as a whole: variables, schemas, made values. */
function special(callee: string, a: (Sym | undefined)[], ctx: EvalContext): Sym | undefined | null {
  const first = a[0];
  // The data file's row: its column's value, else `undefined` (as Newman without `-d`).
  if (callee === "pm.iterationData.get") {
    return first?.k === "lit" ? ctx.variable(String(first.value), "data") : undefined;
  }
  if (VARIABLE_GETTERS.has(callee)) {
    return first?.k === "lit" ? ctx.variable(String(first.value), scopeOf(callee)) : undefined;
  }
  if (callee === "pm.variables.replaceIn") return replaceIn(first, (n) => ctx.variable(n));
  if (callee === "pm.request.headers.get") return ownHeader(first, ctx, (n) => ctx.variable(n));
  if (callee === "tv4.validate") {
    const schema = a[1];
    const conds = first?.k === "path" && schema?.k === "lit"
      ? schemaCheck(first.path, schema.value)
      : undefined;
    return conds ? { k: "cond", conds } : undefined;
  }
  const made = madeBy(callee) ?? numberMade(callee, first, a[1]);
  if (made) return made;
  if (/^Math\.(floor|round|ceil|abs)$|^String$/.test(callee) && first?.k === "gen") return first;
  return null;
}

function call(node: Node, ctx: EvalContext, d: number): Sym | undefined {
  const date = dateCall(node, (n) => evaluate(n, ctx, d)) ?? secondsCall(node) ??
    randomMade(node, (n) => evaluate(n, ctx, d)) ??
    momentCall(node, (n) => evaluate(n, ctx, d), !ctx.scope.get("moment"));
  if (date !== null) return date;
  const callee = dotted(node.callee);
  const a = args(node, ctx, d);
  const helper = callee === undefined ? undefined : ctx.functions?.get(callee);
  if (helper) return helperCall(helper, a, ctx, evaluate, d);
  const library = callee === undefined ? null : libraryCall(callee, a, node.arguments[1]);
  if (library !== null) return library;
  const done = callee === undefined ? null : special(callee, a, ctx);
  if (done !== null) return done;
  const known = callee === undefined ? undefined : CALLS.get(callee);
  return known ? known(a[0]) : methodCall(node, ctx, d, a[0]);
}

/** `x.hasOwnProperty('p')`, `x.includes(v)`, `x.indexOf(v)`, `/re/.test(x)`. */
function methodCall(
  node: Node,
  ctx: EvalContext,
  d: number,
  arg: Sym | undefined,
): Sym | undefined {
  if (node.callee.type !== "MemberExpression" || node.callee.computed) return undefined;
  const method = node.callee.property.name;
  const target = node.callee.object;
  // `re.test(x)` of a `const re = /…/` is the literal's test (regex_held.ts).
  const tested = regexTest(method, regexOf(target, ctx) ?? target, arg);
  if (tested !== null) return tested;
  const on = evaluate(target, ctx, d);
  const text = literalText(method, on, node.arguments.map((n: Node) => evaluate(n, ctx, d + 1)));
  if (text) return text;
  const cut = anyCut(method, on, node.arguments);
  if (cut !== null) return cut;
  if (on?.k === "mapped" && method === "includes") return mappedIncludes(on, arg);
  const folded = foldedIncludes(method, on, arg);
  if (folded) return folded;
  const base = pathOf(on);
  if (base && PICKED.has(method)) {
    return pickCall(method, base, node.arguments[0], false, (n) => evaluate(n, ctx, d + 1));
  }
  const apply = METHODS.get(method);
  if (!base || !apply) return undefined;
  return arg?.k === "lit" ? apply(base, arg.value) : variableArg(method, base, arg);
}

function unary(node: Node, ctx: EvalContext, d: number): Sym | undefined {
  if (node.operator === "!") return not(evaluate(node.argument, ctx, d));
  // `+x` of a variable is `Number(x)`.
  if (node.operator === "+") {
    return plusDate(node) ?? numberMade("Number", evaluate(node.argument, ctx, d));
  }
  if (
    node.operator === "-" && node.argument.type === "Literal" &&
    typeof node.argument.value === "number"
  ) {
    return { k: "lit", value: -node.argument.value };
  }
  if (node.operator === "typeof") {
    const s = evaluate(node.argument, ctx, d);
    return s?.k === "path" ? { k: "path", path: `typeof:${s.path}` } : undefined;
  }
  return undefined;
}

const typedOrMade = (n: Node, v: (n: Node) => Sym | undefined) =>
  constructorCheck(n, v) ?? randomMade(n, v);

function binary(node: Node, ctx: EvalContext, d: number): Sym | undefined {
  if (node.operator === "in") {
    const key = evaluate(node.left, ctx, d);
    const obj = evaluate(node.right, ctx, d);
    if (key?.k !== "lit" || obj?.k !== "path" || typeof key.value !== "string") return undefined;
    return cond(member(obj.path, key.value), "exists", true);
  }
  const typed = typedOrMade(node, (n) => evaluate(n, ctx, d));
  if (typed) return typed;
  const a = evaluate(node.left, ctx, d);
  const b = evaluate(node.right, ctx, d);
  if (!a || !b) return undefined;
  const made = rowComparison(node.operator, a, b) ?? generated(node.operator, a, b) ??
    concat(node.operator, a, b);
  if (made) return made;
  // A pseudo-path (`typeof x`, `x.indexOf(v)`) is no JSONPath: only a comparison pseudo reads is kept.
  if (a.k === "path" && isPseudo(a.path)) return pseudo(a.path, node.operator, b);
  if (b.k === "path" && isPseudo(b.path)) return undefined;
  return comparison(node.operator, a, b);
}

/** `t ? a : b` whose test is known now: the branch it takes. */
function conditional(node: Node, ctx: EvalContext, d: number): Sym | undefined {
  const taken = truthy(evaluate(node.test, ctx, d));
  if (typeof taken !== "boolean") return undefined;
  return evaluate(taken ? node.consequent : node.alternate, ctx, d);
}

function logical(node: Node, ctx: EvalContext, d: number): Sym | undefined {
  const a = evaluate(node.left, ctx, d);
  if (node.operator === "||" || node.operator === "??") {
    return either(node, a, () => evaluate(node.right, ctx, d));
  }
  const b = evaluate(node.right, ctx, d);
  const [ta, tb] = [truthy(a), truthy(b)];
  if (ta === false || tb === false) return { k: "lit", value: false };
  if (ta === true) return b;
  if (tb === true) return a;
  if (!ta || !tb) return undefined;
  return { k: "cond", conds: [...ta, ...tb] };
}

/** An array or object literal of known values (expected values: `eql(["a", "b"])`). */
function literalValue(node: Node, ctx: EvalContext, d: number): Sym | undefined {
  if (node.type === "ArrayExpression") {
    const items = node.elements.map((e: Node | null) => (e ? evaluate(e, ctx, d) : undefined));
    if (!items.every((s: Sym | undefined) => s?.k === "lit")) return undefined;
    return { k: "lit", value: items.map((s: Sym) => (s as { value: unknown }).value) };
  }
  const out: Record<string, unknown> = {};
  for (const p of node.properties) {
    if (p.type !== "Property" || p.computed || p.kind !== "init") return undefined;
    const key = p.key.type === "Identifier" ? p.key.name : String(p.key.value);
    const v = evaluate(p.value, ctx, d);
    if (v?.k !== "lit") return undefined;
    out[key] = v.value;
  }
  return { k: "lit", value: out };
}

/** `` `user-${Date.now()}` ``: text with made values in it. */
function template(node: Node, ctx: EvalContext, d: number): Sym | undefined {
  let text = "";
  let made = false;
  const parts: Sym[] = [];
  for (let i = 0; i < node.quasis.length; i++) {
    const quasi = String(node.quasis[i].value.cooked);
    text += quasi.replaceAll("${", () => "$${");
    parts.push({ k: "lit", value: quasi });
    if (i >= node.expressions.length) break;
    const part = evaluate(node.expressions[i], ctx, d);
    const t = part ? asText(part) : undefined;
    if (!part) return undefined;
    if (t === undefined) return joined(node, ctx, d);
    made ||= part.k !== "lit";
    parts.push(part);
    text += t;
  }
  if (!made) return { k: "lit", value: text };
  // Text of literals and variables' values is joined text, as `"id " + v` is: the same at each read.
  return parts.every((p) => p.k === "lit" || p.k === "var")
    ? { k: "cat", parts }
    : { k: "gen", text, ...sharesOf(parts) };
}

/** A template holding a part of the response (`${item.id}`), joined as `"…" + item.id` is. */
function joined(node: Node, ctx: EvalContext, d: number): Sym | undefined {
  const parts: (Sym | undefined)[] = node.quasis.flatMap((q: Node, i: number) => [
    { k: "lit", value: q.value.cooked },
    ...(i < node.expressions.length ? [evaluate(node.expressions[i], ctx, d)] : []),
  ]);
  return parts.reduce((a, b) => a && b && concat("+", a, b));
}

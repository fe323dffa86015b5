/**
 * Where the translator meets a variable set from a second source
 * (fallback.ts): the block of `if (!pm.environment.get("token")) { … }` after
 * a set of `token` under a condition, and `set("token", a || b)`. The block
 * is walked for one thing: a set of the same variable, under `if`s on the
 * part it reads only (`if (sc)`, `if (m && m[1])`: the optional capture finds
 * nothing otherwise), beside declarations. Anything else in it, or a value of
 * another shape, leaves the whole block a comment as before.
 *
 * @module
 */
import { dotted, type EvalContext, evaluate } from "./eval.ts";
import type { Node } from "./parse.ts";
import { type Cond, type Sym, truthy } from "./sym.ts";
import type { Translation } from "./translation.ts";
import { scopeOf, type VariableReader } from "../scopes.ts";
import { attachFallback, type Fallback, pairedParts, sourceOf, unsetTest } from "./fallback.ts";
import { type ScopeTarget, SETTERS } from "./scope_call.ts";

/** What the walk needs of the translator. */
export interface Walker {
  readonly ctx: EvalContext;
  readonly out: Translation;
  /** Variables as they were before the script ran. */
  readonly before: VariableReader;
  declaration(node: Node): void;
  fallback?: FallbackBlock;
}

/** The variable a setter call sets, and the value node. */
function setterOf(e: Node): { name: string; value: Node } | undefined {
  if (e?.type !== "CallExpression" || !SETTERS.has(dotted(e.callee) ?? "")) return undefined;
  const [key, value] = e.arguments;
  return key?.type === "Literal" && typeof key.value === "string" && value
    ? { name: key.value, value }
    : undefined;
}

/** The block of `if (!get(name))`, walked for its set of `name`. */
export class FallbackBlock {
  /** The `if`s on the response the set is under, flattened. */
  readonly #inner: Cond[][] = [];
  pairs?: [number, Fallback][];
  bad = false;

  constructor(readonly name: string, readonly primary: Sym, readonly t: Walker) {}

  statement(node: Node, depth: number): void {
    if (this.bad) return;
    if (node.type === "EmptyStatement") return;
    if (node.type === "BlockStatement") {
      for (const s of node.body) this.statement(s, depth + 1);
    } else if (node.type === "VariableDeclaration") this.t.declaration(node);
    else if (node.type === "IfStatement" && !node.alternate) this.#if(node, depth);
    else if (node.type === "ExpressionStatement") this.#set(node.expression);
    else this.bad = true;
  }

  /** `if (sc)`, `if (m && m[1])`: conditions on response parts, checked against the set's source. */
  #if(node: Node, depth: number): void {
    const conds = partConds(node.test, this.t.ctx);
    if (!conds) return void (this.bad = true);
    this.#inner.push(conds);
    this.statement(node.consequent, depth + 1);
    this.#inner.pop();
  }

  #set(e: Node): void {
    const set = setterOf(e);
    const value = set?.name === this.name ? evaluate(set.value, this.t.ctx, 0) : undefined;
    const pairs = value && !this.pairs ? pairedParts(this.primary, value) : undefined;
    // Each `if` it is under reads the part it is cut from: nothing found, nothing set, as there.
    const read = new Set(pairs?.map(([, s]) => s.path));
    if (!pairs || !this.#inner.flat().every((c) => read.has(c.path))) return void (this.bad = true);
    this.pairs = pairs;
  }
}

/** The conditions an `if`'s test puts on response parts. */
function partConds(test: Node, ctx: EvalContext): Cond[] | undefined {
  if (test.type === "LogicalExpression" && test.operator === "&&") {
    const [a, b] = [partConds(test.left, ctx), partConds(test.right, ctx)];
    return a && b && [...a, ...b];
  }
  const t = truthy(evaluate(test, ctx, 0));
  return Array.isArray(t) ? t : undefined;
}

/**
 * `if (!get(name)) { … set(name, …) }` after a set of `name` under a
 * condition on the response, with nothing (or a value that may be empty)
 * before the script: walked as the set's fallback; false, with nothing
 * changed, when it is not one (the translator then goes on as before).
 *
 * @example
 * ```ts
 * import { translateScript } from "./translate.ts";
 * const t = translateScript(
 *   "var j = pm.response.json();\nif (j.token) pm.environment.set('token', j.token);\n" +
 *     "if (!pm.environment.get('token')) pm.environment.set('token', pm.cookies.get('t'));",
 *   () => ({ k: "lit", value: undefined }),
 * );
 * if (t.captures[0].fallback?.path !== "$.jar.t" || t.untranslated.length !== 0) throw new Error(JSON.stringify(t));
 * ```
 */
export function fallbackIf(t: Walker, node: Node, depth: number): boolean {
  const unset = node.alternate ? undefined : unsetTest(node.test);
  if (!unset || t.fallback) return false;
  const scope = scopeOf(dotted(unset.getter.callee) ?? "");
  // An empty value in the files is none: read as such, not asked of the user to set.
  const given = t.before.given?.(unset.name);
  const before = given === undefined
    ? t.before(unset.name, scope)
    : { k: "lit" as const, value: given };
  const now = t.ctx.variable(unset.name, scope);
  const guard = unsetBefore(before);
  if (!now || now === before || !guard || !setValue(now)) return false;
  const block = new FallbackBlock(unset.name, now, t);
  t.fallback = block;
  block.statement(node.consequent, depth);
  t.fallback = undefined;
  return !block.bad && block.pairs !== undefined &&
    attachFallback(t.out, unset.name, block.pairs, guard, now.k === "cat");
}

/** The condition that the variable had no value before the script; undefined when it had one. */
function unsetBefore(before: Sym | undefined): Cond[] | undefined {
  if (before?.k === "lit") return before.value ? undefined : [];
  // Its value is the run's: the cookie is taken only when it is empty then, as Postman does.
  return before?.k === "var" ? [{ path: before.expr, op: "falsy", value: true }] : undefined;
}

/** Whether the value set is one a later `!get` reads as set: text with words, or a response part. */
function setValue(s: Sym): boolean {
  if (s.k === "cat") return s.parts.some((p) => p.k === "lit" && String(p.value) !== "");
  return sourceOf(s) !== undefined;
}

/**
 * `set(name, a || b)` of two response parts: `a`, taken when it is truthy,
 * with `b` as its fallback; false when `e` is none.
 *
 * @example
 * ```ts
 * import { translateScript } from "./translate.ts";
 * const t = translateScript(
 *   "pm.environment.set('token', pm.response.json().token || pm.cookies.get('t'));",
 *   () => ({ k: "lit", value: undefined }),
 * );
 * const [c] = t.captures;
 * if (c.when?.[0].op !== "truthy" || c.fallback?.path !== "$.jar.t") throw new Error(JSON.stringify(t));
 * ```
 */
export function orSet(
  t: Walker,
  e: Node,
  to: ScopeTarget,
  call: (e: Node, to: ScopeTarget) => unknown,
): boolean {
  const set = setterOf(e);
  const or = set?.value.type === "LogicalExpression" && set.value.operator === "||"
    ? set.value
    : undefined;
  if (!or || (to.guarded && !to.when)) return false;
  const [a, b] = [evaluate(or.left, t.ctx, 0), evaluate(or.right, t.ctx, 0)];
  const pairs = a && b && a.k !== "cat" ? pairedParts(a, b) : undefined;
  const first = a && sourceOf(a);
  if (!pairs || !first) return false;
  const when = [...to.when ?? [], { path: first.path, op: "truthy", value: true }];
  call({ ...e, arguments: [e.arguments[0], or.left] }, { ...to, guarded: true, when });
  attachFallback(t.out, set!.name, pairs, [], false);
  return true;
}

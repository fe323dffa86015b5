/**
 * A helper function a script declares and calls, as collections pick ids out
 * of a list: `function idFor(code) { var c = list.find(function (x) { return
 * x.code === code; }); return c ? c.id : null; }`, then `idFor("SAVE10")`.
 * One whose body declares values and returns one is evaluated with its
 * arguments bound to its parameters; `c ? c.id : null` reads `c.id` (a flow
 * capture that finds nothing reports it, where Postman sets `null`).
 *
 * @module
 */
import type { Node } from "./parse.ts";
import type { Sym } from "./sym.ts";
import { randomTextCall, randomTextOf } from "./random_text.ts";

/** What evaluating needs here: the script's names (eval.ts's context has more). */
type Scoped = { scope: Map<string, Sym | undefined> };
type Evaluate<C> = (node: Node, ctx: C, depth: number) => Sym | undefined;

/**
 * Whether `fn` is a helper this module evaluates: plain parameters, a body of
 * declarations with values, then a `return`; or one that makes random text
 * (random_text.ts), whose calls are values made per run.
 *
 * @example
 * ```ts
 * import { isHelper } from "./helper_call.ts";
 * import { parseScript } from "./parse.ts";
 * const p = parseScript("function idFor(code) { var c = list.find(function (x) { return x.code === code; }); return c ? c.id : null; }");
 * if (!p.ok || !isHelper(p.program.body[0])) throw new Error();
 * ```
 */
export function isHelper(fn: Node): boolean {
  if (fn.type !== "FunctionDeclaration" || fn.async || fn.generator || !fn.id) return false;
  if (randomTextOf(fn)) return true;
  if (hasEffect(fn.body)) return false;
  if (!fn.params.every((p: Node) => p.type === "Identifier")) return false;
  const body: Node[] = fn.body.body;
  const last = body[body.length - 1];
  return last?.type === "ReturnStatement" && !!last.argument &&
    body.slice(0, -1).every((s) =>
      s.type === "VariableDeclaration" &&
      s.declarations.every((d: Node) => d.id.type === "Identifier" && d.init)
    );
}

/** Whether `node` does more than compute: a `pm.*` call (a send, a set), a `new`, an `await`. */
function hasEffect(node: Node): boolean {
  const stack: Node[] = [node];
  while (stack.length > 0) {
    const n = stack.pop()!;
    if (n.type === "NewExpression" || n.type === "AwaitExpression") return true;
    const callee = n.type === "CallExpression" ? n.callee : undefined;
    const root = callee?.type === "MemberExpression" ? rootName(callee) : undefined;
    if (root === "pm" || root === "postman") return true;
    for (const child of Object.values(n)) {
      for (const c of Array.isArray(child) ? child : [child]) {
        if (c && typeof c === "object" && typeof c.type === "string") stack.push(c);
      }
    }
  }
  return false;
}

/** The name a member chain starts from (`pm` of `pm.sendRequest`). */
function rootName(n: Node): string | undefined {
  while (n.type === "MemberExpression") n = n.object;
  return n.type === "Identifier" ? n.name : undefined;
}

/** `c ? c.id : null`: the member read when `c` is there, `null` (or `undefined`) otherwise. */
function guarded<C>(node: Node, ctx: C, evaluate: Evaluate<C>, d: number): Sym | undefined {
  const test = evaluate(node.test, ctx, d);
  const then = evaluate(node.consequent, ctx, d);
  const otherwise = node.alternate;
  const absent = (otherwise.type === "Literal" && otherwise.value === null) ||
    (otherwise.type === "Identifier" && otherwise.name === "undefined");
  const read = (s: Sym | undefined) => (s?.k === "path" || s?.k === "pick" ? s.path : undefined);
  const [at, value] = [read(test), read(then)];
  return at !== undefined && value !== undefined && value.startsWith(at) && absent
    ? then
    : undefined;
}

/**
 * What `fn(args)` returns, or `undefined` when it cannot be said; a function
 * that makes random text (random_text.ts) makes a value of the run's.
 *
 * @example
 * ```ts
 * import { helperCall } from "./helper_call.ts";
 * import { evaluate } from "./eval.ts";
 * import { parseScript } from "./parse.ts";
 * const p = parseScript("function twice(x) { var y = x; return y; }");
 * if (!p.ok) throw new Error(p.why);
 * const ctx = { scope: new Map(), tests: new Map(), variable: () => undefined };
 * const got = helperCall(p.program.body[0], [{ k: "lit", value: "a" }], ctx, evaluate, 0);
 * if (got?.k !== "lit" || got.value !== "a") throw new Error(JSON.stringify(got));
 * ```
 */
export function helperCall<C extends Scoped>(
  fn: Node,
  args: (Sym | undefined)[],
  ctx: C,
  evaluate: Evaluate<C>,
  d: number,
): Sym | undefined {
  const random = randomTextOf(fn);
  if (random) return randomTextCall(random, args);
  const scope = new Map(ctx.scope);
  fn.params.forEach((p: Node, i: number) =>
    scope.set(p.name, args[i] ?? { k: "lit", value: undefined })
  );
  const inner = { ...ctx, scope };
  const body: Node[] = fn.body.body;
  for (const s of body.slice(0, -1)) {
    for (const v of s.declarations) scope.set(v.id.name, evaluate(v.init, inner, d + 1));
  }
  const returned = body[body.length - 1].argument;
  return returned.type === "ConditionalExpression"
    ? guarded(returned, inner, evaluate, d + 1)
    : evaluate(returned, inner, d + 1);
}

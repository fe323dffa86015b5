/**
 * A guard clause, `if (list.length === 0) { pm.test.skip("…"); return; }`, then the tests: the
 * statements after it run only when the guard does not hold. Scripts write it to skip the checks
 * of an element an empty answer lacks; read statement by statement, the later checks were made on
 * every answer and failed where Newman never ran them. Said as what it means, an `if` whose `else`
 * holds the rest (`if (C) { X } else { rest }`), it is walked as any `if`: the rest under the
 * condition's negation, or a comment when the condition is not understood.
 *
 * The rewrite is at the level the `return` leaves: the script's own statements (the sandbox runs a
 * script as a function's body) and every function's body (a `pm.test` callback, a `forEach`'s
 * element function). A `return` deeper in a block, or one that returns a value, is left as it is.
 *
 * @module
 */
import type { Node } from "./node.ts";

/** The statements of a guard's branch before its bare `return;`, or `undefined` for no guard. */
function guardBody(s: Node): Node[] | undefined {
  if (s.type !== "IfStatement" || s.alternate) return undefined;
  const c = s.consequent;
  if (c.type === "ReturnStatement") return c.argument ? undefined : [];
  if (c.type !== "BlockStatement") return undefined;
  const last = c.body.at(-1);
  return last?.type === "ReturnStatement" && !last.argument ? c.body.slice(0, -1) : undefined;
}

/** `…, if (C) { X; return; }, rest…` as `…, if (C) { X } else { rest… }`, at every guard. */
function unguarded(list: Node[]): Node[] {
  for (let i = 0; i < list.length - 1; i++) {
    const s = list[i];
    const kept = guardBody(s);
    if (!kept) continue;
    const rest = unguarded(list.slice(i + 1));
    const branch = { type: "BlockStatement", start: s.consequent.start, end: s.consequent.end };
    const alternate = { type: "BlockStatement", start: rest[0].start, end: rest.at(-1)!.end };
    const folded = {
      ...s,
      end: alternate.end,
      consequent: { ...branch, body: kept },
      alternate: { ...alternate, body: rest },
    };
    return [...list.slice(0, i), folded];
  }
  return list;
}

const FUNCTIONS = new Set(["FunctionDeclaration", "FunctionExpression", "ArrowFunctionExpression"]);

/** Rewrites the function bodies under `node` (children first), in place. */
function walk(node: Node): void {
  for (const value of Object.values(node)) {
    const children = Array.isArray(value) ? value : [value];
    for (const child of children) {
      if (child && typeof child === "object" && typeof child.type === "string") walk(child);
    }
  }
  if (FUNCTIONS.has(node.type) && node.body?.type === "BlockStatement") {
    node.body.body = unguarded(node.body.body);
  }
}

/**
 * `program` with each guard clause (`if (C) { …; return; }` followed by more statements) as an
 * `if` whose `else` holds what follows, in the script's own statements and in every function's.
 *
 * @example
 * ```ts
 * import { parseScript } from "./parse.ts";
 * import { withoutEarlyReturns } from "./early_return.ts";
 * const p = parseScript("if (a.length === 0) { skip(); return; } check(a);");
 * if (!p.ok) throw new Error();
 * const [only] = withoutEarlyReturns(p.program).body;
 * if (p.program.body.length !== 1 || only.alternate.body[0].expression.callee.name !== "check") {
 *   throw new Error();
 * }
 * ```
 */
export function withoutEarlyReturns(program: Node): Node {
  walk(program);
  program.body = unguarded(program.body);
  return program;
}

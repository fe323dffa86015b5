/**
 * A local that a statement left untranslated assigns is unknown after it. A
 * script that builds a code in a loop (`var s = ''; for (…) s += chars.charAt(…)`)
 * sets a variable from the local afterwards: the loop stays a comment, and the
 * local kept the empty text it was declared with, which the flow sent with no
 * word in the summary. Unknown, the variable set from it is named there and
 * sent as written, as any value flowrun cannot express.
 *
 * @module
 */
import { type EvalContext, evaluate } from "./eval.ts";
import type { Node } from "./parse.ts";
import type { Sym } from "./sym.ts";

/** Scripts are short: a bound keeps the walk linear whatever they hold. */
const MAX_NODES = 10_000;

/** The names `node` assigns (`s += …`, `n++`, `s = …`), with a function's body left out. */
function assigned(node: Node): Set<string> {
  const names = new Set<string>();
  const stack: Node[] = [node];
  for (let seen = 0; stack.length > 0 && seen < MAX_NODES; seen++) {
    const at = stack.pop()!;
    const target = at.type === "AssignmentExpression"
      ? at.left
      : at.type === "UpdateExpression"
      ? at.argument
      : undefined;
    if (target?.type === "Identifier") names.add(target.name);
    // A function declared here runs only when called: what it assigns is not assigned here.
    if (/Function/.test(at.type) && at !== node) continue;
    for (const child of Object.values(at)) {
      for (const c of Array.isArray(child) ? child : [child]) {
        if (c && typeof c === "object" && typeof c.type === "string") stack.push(c);
      }
    }
  }
  return names;
}

/**
 * Marks each local of `scope` that `node` (a statement not translated)
 * assigns as unknown.
 *
 * @example
 * ```ts
 * import { forgetAssigned } from "./forget.ts";
 * import { parseScript } from "./parse.ts";
 * const p = parseScript("for (var i = 0; i < 6; i++) s += 'A';");
 * if (!p.ok) throw new Error();
 * const scope = new Map([["s", { k: "lit" as const, value: "" }], ["t", { k: "lit" as const, value: "" }]]);
 * forgetAssigned(p.program.body[0], scope);
 * if (scope.get("s") !== undefined || scope.get("t")?.k !== "lit") throw new Error();
 * ```
 */
export function forgetAssigned(node: Node, scope: Map<string, Sym | undefined>): void {
  for (const name of assigned(node)) if (scope.has(name)) scope.set(name, undefined);
}

/**
 * The value an assignment to a local gives it: `x = …`, and `x += …` read as
 * `x = x + …` (a URL or a code built up a piece at a time); undefined for any
 * other operator, unknown from then on.
 *
 * @example
 * ```ts
 * import { assignedValue } from "./forget.ts";
 * import { parseScript } from "./parse.ts";
 * const p = parseScript('u += "?a=1"');
 * if (!p.ok) throw new Error();
 * const ctx = { scope: new Map([["u", { k: "lit" as const, value: "/b" }]]), tests: new Map(), variable: () => undefined };
 * const v = assignedValue(p.program.body[0].expression, ctx);
 * if (v?.k !== "lit" || v.value !== "/b?a=1") throw new Error(JSON.stringify(v));
 * ```
 */
export function assignedValue(e: Node, ctx: EvalContext): Sym | undefined {
  if (e.operator === "=") return evaluate(e.right, ctx, 0);
  if (e.operator !== "+=") return undefined;
  const sum = { ...e, type: "BinaryExpression", operator: "+", left: e.left, right: e.right };
  return evaluate(sum, ctx, 0);
}

/**
 * A set whose value is worked out from the value its variable held before:
 * `pm.environment.set("n", Number(pm.environment.get("n") || 0) + 1)`. Nothing set `n` before,
 * so the first pass gives a value known now (1), but each pass of the script (the next iteration,
 * a request sent again) gives another: it is a counter, no value known now. The evidence is the
 * value itself: worked out again with the variable holding what the first pass gave, a counter
 * gives something else, where a default (`get("t") || "abc"`) gives the same and stays known. The
 * script's locals are worked out again too (`const n = Number(get("n") || 0) + 1; set("n", n)`).
 *
 * @module
 */
import { type EvalContext, evaluate } from "./eval.ts";
import type { Node } from "./parse.ts";
import type { Sym } from "./sym.ts";

/**
 * Whether `set(name, arg)`, whose value `value` is known now, gives another value on its next
 * pass: `arg` worked out again, `name` read as `value`, is not that same value.
 *
 * @example
 * ```ts
 * import { countsOn } from "./counter.ts";
 * import { parseScript } from "./parse.ts";
 * const arg = (s: string) => {
 *   const p = parseScript(`pm.environment.set("n", ${s})`);
 *   if (!p.ok) throw new Error(s);
 *   return p.program.body[0].expression.arguments[1];
 * };
 * const ctx = { scope: new Map(), tests: new Map(), variable: () => ({ k: "lit" as const, value: undefined }) };
 * if (!countsOn(arg('Number(pm.environment.get("n") || 0) + 1'), "n", { k: "lit", value: 1 }, ctx)) throw new Error();
 * if (countsOn(arg('pm.environment.get("n") || "abc"'), "n", { k: "lit", value: "abc" }, ctx)) throw new Error();
 * if (countsOn(arg("41 + 1"), "n", { k: "lit", value: 42 }, ctx)) throw new Error();
 * const p = parseScript('const k = (pm.environment.get("n") || 0) + 1;');
 * if (!p.ok) throw new Error();
 * const inits = new Map([["k", p.program.body[0].declarations[0].init]]);
 * const local = { ...ctx, scope: new Map([["k", { k: "lit" as const, value: 1 }]]), inits };
 * if (!countsOn(arg("k"), "n", { k: "lit", value: 1 }, local)) throw new Error();
 * ```
 */
export function countsOn(
  arg: Node | undefined,
  name: string,
  value: Sym | undefined,
  ctx: EvalContext,
): boolean {
  if (!arg || value?.k !== "lit") return false;
  const variable: EvalContext["variable"] = (n, scope) =>
    n === name ? value : ctx.variable(n, scope);
  const next = { ...ctx, variable, scope: new Map(ctx.scope) };
  // Each local as declared, in order, on the next pass; one that holds something else now (a
  // loop drew it again, it was assigned) keeps what it holds.
  for (const [local, init] of ctx.inits ?? []) {
    if (same(evaluate(init, ctx, 0), ctx.scope.get(local))) {
      next.scope.set(local, evaluate(init, next, 0));
    }
  }
  const again = evaluate(arg, next, 0);
  return again?.k !== "lit" || !same(again.value, value.value);
}

/** Two values (or what a script's expressions mean) equal as the set keeps them. */
function same(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  try {
    return JSON.stringify(a) === JSON.stringify(b);
  } catch {
    return false; // a value JSON cannot write: not known to be the same
  }
}

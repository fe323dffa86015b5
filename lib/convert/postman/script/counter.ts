/**
 * A set whose value is worked out from the value its variable held before:
 * `pm.environment.set("n", Number(pm.environment.get("n") || 0) + 1)`. Nothing set `n` before,
 * so the first pass gives a value known now (1), but each pass of the script (the next iteration,
 * a request sent again) gives another: it is a counter, no value known now. The evidence is the
 * value itself: worked out again with the variable holding what the first pass gave, a counter
 * gives something else, where a default (`get("t") || "abc"`) gives the same and stays known. The
 * script's locals are worked out again too, as declared and assigned
 * (`let n = Number(get("n") || 0); n = n + 1; set("n", n)`).
 *
 * @module
 */
import { type EvalContext, evaluate, type Kept } from "./eval.ts";
import { assignedValue } from "./forget.ts";
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
 * const kept = [{ name: "k", node: p.program.body[0].declarations[0].init }];
 * const local = { ...ctx, scope: new Map([["k", { k: "lit" as const, value: 1 }]]), kept };
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
  const next = { ...ctx, variable };
  const kept = ctx.kept ?? [];
  const [now, then] = [replay(ctx, kept), replay(next, kept)];
  const scope = new Map(ctx.scope);
  // A local that holds something else than its replay (a loop drew it again) keeps what it holds.
  for (const { name: local } of kept) {
    if (same(now.get(local), ctx.scope.get(local))) scope.set(local, then.get(local));
  }
  const again = evaluate(arg, { ...next, scope }, 0);
  return again?.k !== "lit" || !same(again.value, value.value);
}

/** The locals `kept` declares and assigns, worked out in order against `ctx`. */
function replay(ctx: EvalContext, kept: readonly Kept[]): Map<string, Sym | undefined> {
  const scope = new Map(ctx.scope);
  for (const k of kept) scope.delete(k.name);
  const at = { ...ctx, scope };
  for (const k of kept) {
    scope.set(k.name, k.assigned ? assignedValue(k.node, at) : evaluate(k.node, at, 0));
  }
  return scope;
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

/**
 * moment.js objects change in place: `today.add(3, "d")` moves `today` itself
 * and gives it back, so a booking collection's `const today = moment(); var
 * checkin = today.add(1, "d").add(2, "M").format(…); var checkout =
 * today.add(3, "d").format(…)` sends a check-out three days after its
 * check-in (Newman 6.2.2: `2027-01-30`, `2027-02-02`), not three days from
 * now. After a statement, each chain of `add`/`subtract` calls on a moment kept
 * in a variable moves that variable to where the chain ends, as moment does;
 * a statement that is nothing but such a chain (`today.add(7, "days");`) is
 * translated so. `moment()` and `moment(day)` make a new moment, which no shift
 * of another one moves. A `Date` kept in a variable and moved by its `set…`
 * calls (`d.setDate(d.getDate() + 3)`) is moved here the same way.
 *
 * @module
 */
import { type EvalContext, evaluate } from "./eval.ts";
import { dateSets } from "./date_local.ts";
import type { Node } from "./parse.ts";
import type { Sym } from "./sym.ts";

const SHIFTS = new Set(["add", "subtract"]);
/** How deep a chain or a statement is walked: scripts are short, a bound keeps it linear. */
const MAX_NODES = 10_000;

/** The variable a chain of shifts starts from (`today.add(1, "d").add(2, "w")`: `today`). */
function rootOf(n: Node): string | undefined {
  let at = n;
  for (let i = 0; i < MAX_NODES; i++) {
    const c = at.type === "CallExpression" ? at.callee : undefined;
    if (c?.type !== "MemberExpression" || c.computed || !SHIFTS.has(c.property.name)) return;
    if (c.object.type === "Identifier") return c.object.name;
    at = c.object;
  }
}

/** The outermost shift chains inside `node`, each with the variable it starts from. */
function chains(node: Node): [Node, string][] {
  const found: [Node, string][] = [];
  const stack: Node[] = [node];
  for (let seen = 0; stack.length > 0 && seen < MAX_NODES; seen++) {
    const at = stack.pop()!;
    const root = rootOf(at);
    // A function's body runs when it is called, not where it is written.
    if (root) found.push([at, root]);
    if (root || /Function/.test(at.type)) continue;
    for (const child of Object.values(at)) {
      for (const c of Array.isArray(child) ? child : [child]) {
        if (c && typeof c === "object" && typeof c.type === "string") stack.push(c);
      }
    }
  }
  return found;
}

/** The shift chains of `statement` that start from a moment kept in `scope`. */
function movedIn(statement: Node, scope: Map<string, Sym | undefined>): [Node, string][] {
  return chains(statement).filter(([, root]) => {
    const held = scope.get(root);
    return held?.k === "gen" && held.moment === true;
  });
}

/**
 * Translates `statement` with `translate`, then moves each moment kept in
 * `ctx.scope` that a shift chain in it moved (a shift of what cannot be said
 * leaves the variable unknown, never at its old time); a statement that is
 * nothing but one such chain is not translated otherwise: it only moves.
 *
 * @example
 * ```ts
 * import { shifting } from "./moment_shift.ts";
 * import { parseScript } from "./parse.ts";
 * const p = parseScript("today.add(3, 'd');");
 * if (!p.ok) throw new Error();
 * const scope = new Map([["today", { k: "gen" as const, text: "${NOW.ISO}", moment: true as const }]]);
 * const ctx = { scope, tests: new Map(), variable: () => undefined };
 * shifting(p.program.body[0], ctx, () => { throw new Error("only a shift"); });
 * if (scope.get("today")?.k !== "gen" || (scope.get("today") as { text: string }).text !== "${NOW.ISO+3d}") {
 *   throw new Error(JSON.stringify(scope.get("today")));
 * }
 * ```
 */
export function shifting(statement: Node, ctx: EvalContext, translate: () => void): void {
  const moved = movedIn(statement, ctx.scope);
  // A JavaScript `Date` moves in place too, by its `set…` calls (date_local.ts).
  const dates = dateSets(statement, (n) => evaluate(n, ctx, 0));
  const e = statement.type === "ExpressionStatement" ? statement.expression : undefined;
  if (!(moved.length === 1 && moved[0][0] === e) && !dates.only) translate();
  for (const [chain, root] of moved) {
    const to = evaluate(chain, ctx, 0);
    ctx.scope.set(root, to?.k === "gen" && to.moment ? to : undefined);
  }
  for (const [name, to] of dates.moves) ctx.scope.set(name, to);
}

/**
 * An `if` on a Postman variable's truthiness, as collections switch checks
 * off for a kind of run (`if (!(environment.isIntegrationTest)) { tests… }`,
 * the RealWorld project's own collection): a condition on the value the
 * variable has when the flow runs (`{value: "${vars.isIntegrationTest}", …}`),
 * since the user may set another than the file's. flowrun tests such a
 * condition in a check group's `if`, never as a check of its own, so only
 * an `if` statement's test is read this way.
 *
 * @module
 */
import { type EvalContext, evaluate } from "./eval.ts";
import type { Node } from "./parse.ts";
import type { Cond } from "./sym.ts";

/**
 * Whether `c` tests a variable's value (its path is a flow expression,
 * `${vars.x}`) rather than a part of the response (`$.json.x`).
 *
 * @example
 * ```ts
 * import { onValue } from "./var_condition.ts";
 * if (!onValue({ path: "${vars.x}", op: "truthy", value: true })) throw new Error();
 * if (onValue({ path: "$.json.x", op: "exists", value: true })) throw new Error();
 * ```
 */
export function onValue(c: Cond): boolean {
  return c.path.startsWith("${");
}

/**
 * The condition an `if`'s `test` puts on a variable read at run time, with
 * any `!` before it: JavaScript's truthiness of its value, or its
 * falsiness; `undefined` when the test is not a variable's value.
 *
 * @example
 * ```ts
 * import { variableCondition } from "./var_condition.ts";
 * import { parseScript } from "./parse.ts";
 * const p = parseScript("!(environment.isIntegrationTest)");
 * const ctx = {
 *   scope: new Map(),
 *   tests: new Map(),
 *   variable: (name: string) => ({ k: "var" as const, name, expr: `\${vars.${name}}` }),
 * };
 * const c = p.ok ? variableCondition(p.program.body[0].expression, ctx) : undefined;
 * if (c?.[0].path !== "${vars.isIntegrationTest}" || c[0].op !== "falsy") throw new Error();
 * ```
 */
export function variableCondition(test: Node, ctx: EvalContext): Cond[] | undefined {
  let negated = false;
  let node = test;
  for (let depth = 0; node.type === "UnaryExpression" && node.operator === "!"; depth++) {
    if (depth > 8) return undefined;
    negated = !negated;
    node = node.argument;
  }
  const value = evaluate(node, ctx, 0);
  if (value?.k !== "var") return undefined;
  return [{ path: value.expr, op: negated ? "falsy" : "truthy", value: true }];
}

/**
 * What the `if` branches a statement is under say of a set in it: whether one
 * decides it (`guarded`), and their conditions when every one is on the
 * response (`when`: the capture is taken only when they hold).
 *
 * @example
 * ```ts
 * import { guardOf } from "./var_condition.ts";
 * const status = { path: "$.status", op: "equals", value: 201 };
 * if (guardOf([[status]]).when?.[0] !== status || guardOf([undefined]).when) throw new Error();
 * if (guardOf([]).guarded) throw new Error();
 * ```
 */
export function guardOf(branches: (Cond[] | undefined)[]): { guarded: boolean; when?: Cond[] } {
  if (branches.length === 0) return { guarded: false };
  if (branches.some((b) => b === undefined)) return { guarded: true };
  return { guarded: true, when: branches.flat() as Cond[] };
}

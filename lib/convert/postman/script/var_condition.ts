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
import type { CheckItem } from "./each.ts";

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
 * falsiness, or its equality with a literal (`get("kind") === "full"`, a data
 * file's column as Newman's `-d` gives it); `undefined` when the test is not
 * a variable's value.
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
  const compared = comparedWithLiteral(node, ctx, negated);
  if (compared !== null) return compared;
  const value = evaluate(node, ctx, 0);
  if (value?.k !== "var") return undefined;
  return [{ path: value.expr, op: negated ? "falsy" : "truthy", value: true }];
}

/** Equality operators, whether each holds when the two sides are equal. */
const EQUALITY: Record<string, boolean> = { "===": true, "==": true, "!==": false, "!=": false };

/**
 * `pm.iterationData.get("expectResults") === "true"` (either side, `!==`
 * alike): the variable's value at run time equal to, or other than, the
 * literal; `null` when `node` is no such comparison, `undefined` when it is
 * one that cannot be said.
 */
function comparedWithLiteral(node: Node, ctx: EvalContext, negated: boolean) {
  const holds = node.type === "BinaryExpression" ? EQUALITY[node.operator] : undefined;
  if (holds === undefined) return null;
  const [a, b] = [evaluate(node.left, ctx, 0), evaluate(node.right, ctx, 0)];
  const [v, lit] = a?.k === "var" ? [a, b] : [b, a];
  if (v?.k !== "var" || lit?.k !== "lit") return null;
  // A number or boolean: whether the value is one or its text differs by where it came from.
  if (typeof lit.value !== "string") return undefined;
  const op = holds !== negated ? "equals" : "notEquals";
  return [{ path: v.expr, op, value: lit.value }];
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

/**
 * The checks a `pm.test` made before a statement in it, as one more branch for
 * {@linkcode guardOf}: a failed `expect` throws out of the test's function, so a
 * set after the checks runs only when they held. `from` is where the test's checks
 * start in `sink` (undefined outside a test); a group of checks (an `if`, a loop)
 * among them cannot be said as conditions.
 *
 * @example
 * ```ts
 * import { testedSoFar } from "./var_condition.ts";
 * const cond = { path: "$.json.token", op: "type", value: "string" };
 * if (testedSoFar([{ cond }], 0)[0]?.[0] !== cond || testedSoFar([{ cond }], undefined).length) throw new Error();
 * if (testedSoFar([{ at: "$.json[*]", checks: [] }], 0)[0] !== undefined) throw new Error();
 * ```
 */
export function testedSoFar(sink: CheckItem[], from: number | undefined): (Cond[] | undefined)[] {
  const items = from === undefined ? [] : sink.slice(from);
  if (items.length === 0) return [];
  const conds = items.map((i) => "cond" in i ? i.cond : undefined);
  return [conds.includes(undefined) ? undefined : conds as Cond[]];
}

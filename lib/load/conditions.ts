/**
 * A step's `if`: conditions on earlier values, written like checks with a
 * `value` instead of a `path` (`{value: "${steps.list.capture.count}", gt: 0}`),
 * one condition or a list of them, all of which must hold.
 *
 * @module
 */
import { isMap, isScalar, isSeq, type Node } from "yaml";
import type { Condition, Operator } from "../flow.ts";
import { OPERATORS } from "../operators.ts";
import { expectedValue } from "./checks.ts";
import { describe, type Entry, type Loading, type TemplateUse } from "./context.ts";

/** The conditions of an `if` entry. */
export function loadConditions(
  ctx: Loading,
  entry: Entry,
  what: string,
  owner: TemplateUse["owner"],
): Condition[] {
  const node = ctx.deref(entry.value);
  const items = isSeq(node) ? node.items.map((i) => ctx.deref(i)) : [node];
  if (!isSeq(node) && !isMap(node)) {
    ctx.problem(
      "wrong-type",
      `Expected ${what} to be a condition or a list of them, got ${describe(node)}.`,
      node ?? entry.keyNode,
      'For example: if: {value: "${steps.list.capture.count}", gt: 0}',
    );
    return [];
  }
  return items.flatMap((item) => condition(ctx, item, what, owner));
}

function condition(
  ctx: Loading,
  node: Node | null,
  what: string,
  owner: TemplateUse["owner"],
): Condition[] {
  const map = ctx.map(node, `a condition in ${what}`, "check", ["value", ...OPERATORS], {
    required: ["value"],
  });
  if (!map) return [];
  const valueEntry = map.get("value");
  const value = valueEntry && ctx.value(valueEntry.value, owner);
  const source = valueEntry && isScalar(valueEntry.value)
    ? String(valueEntry.value.value)
    : "value";
  const operators = [...map.keys()].filter((k) => k !== "value") as Operator[];
  if (operators.length === 0 && map.size > 0 && !(isMap(node) && node.items.length > map.size)) {
    ctx.problem(
      "missing-key",
      `The condition on "${source}" has no operator.`,
      node,
      `Add one of: ${OPERATORS.join(", ")}; e.g. "gt: 0" or "equals: true".`,
    );
  }
  const out: Condition[] = [];
  for (const operator of operators) {
    const entry = map.get(operator)!;
    const expected = expectedValue(ctx, operator, entry, owner);
    if (value && expected) {
      out.push({ source, value, operator, expected, ...ctx.at(entry.keyNode) });
    }
  }
  return out;
}

/**
 * A step's `if`: conditions on earlier values, written like checks with a
 * `value` instead of a `path` (`{value: "${steps.list.capture.count}", gt: 0}`),
 * one condition or a list of them, all of which must hold.
 *
 * @module
 */
import type { Node, YAMLMap } from "yaml";
import { isMap, isScalar, isSeq } from "./nodes.ts";
import type { CompiledPath, PathRoot } from "../expr/path.ts";
import type { Condition, GroupCondition, Operator } from "../model/flow.ts";
import { OPERATORS } from "../model/operators.ts";
import { expectedValue } from "./expected.ts";
import type { Loading } from "./context.ts";
import { describe } from "./describe.ts";
import type { Entry, TemplateUse } from "./entry.ts";

/**
 * The conditions of an `if` entry.
 *
 * @example
 * ```ts
 * import { loadFlow } from "./load_flow.ts";
 * const { flow } = loadFlow(
 *   'name: f\nsteps:\n  - name: s\n    if: {value: "${ENV.ON:-yes}", equals: "yes"}\n' +
 *     '    request: {url: "http://x.test"}\n',
 *   "f.yaml",
 * );
 * if (flow?.steps[0].when?.[0].operator !== "equals") throw new Error();
 * ```
 */
export function loadConditions(
  ctx: Loading,
  entry: Entry,
  what: string,
  owner: TemplateUse["owner"],
): Condition[] {
  const items = conditionItems(
    ctx,
    entry,
    what,
    'For example: if: {value: "${steps.list.capture.count}", gt: 0}',
  );
  return items.flatMap((item) => condition(ctx, item, what, owner));
}

/** One condition or a list of them: the items, or none (and a problem) for anything else. */
function conditionItems(
  ctx: Loading,
  entry: Entry,
  what: string,
  example: string,
): (Node | null)[] {
  const node = ctx.deref(entry.value);
  if (isSeq(node)) return node.items.map((i) => ctx.deref(i));
  if (isMap(node)) return [node];
  ctx.problem(
    "wrong-type",
    `Expected ${what} to be a condition or a list of them, got ${describe(node)}.`,
    node ?? entry.keyNode,
    example,
  );
  return [];
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

/**
 * The conditions of a check group's `if`: like a step's, and also on the
 * response, with a `path` (rooted like the group's checks) instead of a `value`.
 *
 * @example
 * ```ts
 * import { loadFlow } from "./load_flow.ts";
 * const { flow } = loadFlow(
 *   'name: f\nsteps:\n  - name: s\n    request: {url: "http://x.test"}\n' +
 *     "    assert: {json: [{if: {path: $.json.n, gt: 0}, checks: [{path: $.json.a, exists: true}]}]}\n",
 *   "f.yaml",
 * );
 * const [check] = flow?.steps[0].assert.paths ?? [];
 * if (check?.groups?.[0].group.when[0].kind !== "path") throw new Error();
 * ```
 */
export function loadGroupConditions(
  ctx: Loading,
  entry: Entry,
  what: string,
  owner: TemplateUse["owner"],
  root: PathRoot,
  base: CompiledPath[],
): GroupCondition[] {
  const items = conditionItems(
    ctx,
    entry,
    what,
    "For example: if: {path: $.json.items, notEquals: []}",
  );
  return items.flatMap((item): GroupCondition[] => {
    const onPath = isMap(item) && item.items.some((p) => isScalar(p.key) && p.key.value === "path");
    return onPath
      ? pathCondition(ctx, item, what, owner, root, base)
      : condition(ctx, item, what, owner).map((c) => ({ ...c, kind: "value" as const }));
  });
}

/** A group condition on the response: `{path, <operator>: expected, …}`, rooted like the group's checks. */
function pathCondition(
  ctx: Loading,
  item: YAMLMap,
  what: string,
  owner: TemplateUse["owner"],
  root: PathRoot,
  base: CompiledPath[],
): GroupCondition[] {
  const map = ctx.map(item, `a condition in ${what}`, "check", ["path", ...OPERATORS]);
  if (!map) return [];
  const path = ctx.path(map.get("path")!.value, root, `a condition in ${what}`, owner);
  const operators = [...map.keys()].filter((k) => k !== "path") as Operator[];
  if (operators.length === 0 && item.items.length === map.size) {
    ctx.problem(
      "missing-key",
      `The condition on "${path?.source}" has no operator.`,
      item,
      'Add one, e.g. "exists: true" or "notEquals: []".',
    );
  }
  return operators.flatMap((operator) => {
    const e = map.get(operator)!;
    const expected = expectedValue(ctx, operator, e, owner);
    return path && expected
      ? [{
        kind: "path" as const,
        path,
        ...(base.length > 0 ? { base } : {}),
        operator,
        expected,
        ...ctx.at(e.keyNode),
      }]
      : [];
  });
}

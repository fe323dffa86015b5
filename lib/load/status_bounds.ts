/**
 * Bounds on an assert's `status` (`status: {lt: 400}`,
 * `{gte: 200, lt: 300}`): each a code of the step's kind or an expression
 * whose value is one when the check runs; every bound must hold. A range no
 * code meets is a mistake told before any request.
 *
 * @module
 */
import type { Node, YAMLMap } from "yaml";
import type { StatusBound, StatusCheck } from "../model/flow.ts";
import { boundsText, withinBounds } from "../model/status_bounds.ts";
import type { Loading } from "./context.ts";
import { describe } from "./describe.ts";
import type { Entry, TemplateUse } from "./entry.ts";
import { isCode, isExpression } from "./status_code.ts";
import type { StatusRange } from "../kinds/mod.ts";

/** One bound, or undefined with its problem told. */
function bound(
  ctx: Loading,
  op: StatusBound["op"],
  entry: Entry,
  owner: TemplateUse["owner"],
  range: StatusRange,
): StatusBound | undefined {
  const value = ctx.deref(entry.value) as Node | null;
  if (isCode(value, range)) return { op, value: Number((value as { value: unknown }).value) };
  if (isExpression(value)) {
    const from = ctx.value(value, owner);
    return from ? { op, value: 0, from } : undefined;
  }
  ctx.problem(
    "wrong-type",
    `Expected "${op}" of "status" to be ${range.what}, got ${describe(value)}.`,
    value ?? entry.keyNode,
    `Write a number (${op}: 400), or an expression whose value is one: "\${vars.limit}".`,
  );
  return undefined;
}

/**
 * The bounds check of a `status` map holding only bounds (`entries` in
 * their written order), or undefined with the problems told.
 *
 * @example
 * ```ts
 * import { loadFlow } from "./load_flow.ts";
 * const { flow } = loadFlow(
 *   'name: f\nsteps:\n  - name: s\n    request: {url: "http://x.test"}\n' +
 *     "    assert: {status: {gte: 200, lt: 300}}\n",
 *   "f.yaml",
 * );
 * if (flow?.steps[0].assert?.status?.bounds?.length !== 2) throw new Error();
 * ```
 */
export function statusBounds(
  ctx: Loading,
  node: YAMLMap,
  entries: [StatusBound["op"], Entry][],
  at: ReturnType<Loading["at"]>,
  owner: TemplateUse["owner"],
  range: StatusRange,
): StatusCheck | undefined {
  const bounds = entries.map(([op, entry]) => bound(ctx, op, entry, owner, range));
  if (bounds.some((b) => b === undefined)) return undefined;
  const known = bounds as StatusBound[];
  const fixed = known.filter((b) => !b.from);
  let some = false;
  for (let code = range.min; code <= range.max && !some; code++) {
    some = withinBounds(code, fixed);
  }
  if (!some) {
    ctx.problem(
      "wrong-type",
      `No status code is ${boundsText(fixed)}: "status" would never hold.`,
      node,
      "For example: status: {gte: 200, lt: 300} (any 2xx) or status: {lt: 400} (as curl --fail).",
    );
    return undefined;
  }
  return { operator: "bounds", expected: [], bounds: known, ...at };
}

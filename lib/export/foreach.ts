/**
 * A `foreach` step as an Artillery `loop` `over` its list: the element and
 * its index are the loop's `loopElement` and `loopValue`, named as the
 * step's `as` var and `<as>_index` in the flow's name space, so
 * `${vars.drink}` reads the element. A list written in the flow is the
 * loop's list; one expression that names a list (a capture, a var) is the
 * name of the user's variable that holds it. The step's captures become
 * lists, one value per iteration, as in `flowrun run`: each is captured
 * under a name of its own and added to the list by the processor's
 * `flowrunCollect` hook.
 *
 * @module
 */
import type { Step } from "../model/flow.ts";
import type { FlowItem } from "./flow_item.ts";
import { note, type Place, varName } from "./scope.ts";
import { exprText, templateValue } from "./template.ts";

/** The loop's list: a list, or the name of the user's variable holding one; undefined (noted) otherwise. */
function overOf(step: Step, place: Place): unknown {
  const items = step.foreach!.items;
  const parts = items.kind === "template" ? items.template.parts : [];
  if (parts.length === 1 && typeof parts[0] === "object") {
    const name = /^\{\{ ([\w$.]+) \}\}$/.exec(exprText(parts[0], place))?.[1];
    if (name) return name;
  }
  const list = templateValue(items, place);
  if (Array.isArray(list) && !JSON.stringify(list).includes("{{")) return list;
  note(place, `its foreach list "${step.foreach!.source}" is not expressed: it is sent once`);
  return undefined;
}

/**
 * The loop item of a `foreach` step around its items (the request, or a
 * polling loop); undefined (noted) when its list cannot be expressed.
 *
 * @example
 * ```ts
 * import { foreachItem } from "./foreach.ts";
 * import { newScope } from "./scope.ts";
 * const place = { scope: newScope(), flow: "f", flowIndex: 0, vars: new Set(["d"]) };
 * const foreach = { items: { kind: "const" as const, value: ["a", "b"] }, source: "[a, b]", as: "d", index: "d_index", max: 10 };
 * const step = { foreach, captures: [] } as never;
 * const item = foreachItem(step, [{ comments: [], item: { get: { url: "u" } } }], place);
 * if (JSON.stringify(item?.over) !== '["a","b"]' || item?.loopElement !== "f0_var_d") throw new Error();
 * ```
 */
export function foreachItem(
  step: Step,
  items: FlowItem[],
  place: Place,
): Record<string, unknown> | undefined {
  const foreach = step.foreach!;
  const over = overOf(step, place);
  if (over === undefined) return undefined;
  const index = varName(place.flowIndex, foreach.index);
  const request = findRequest(items.at(-1)!.item);
  const captures = [
    ...(request.capture ?? []) as { as: string }[],
    ...(request.flowrunCaptures ?? []) as { as: string }[],
  ];
  if (captures.length) {
    request.flowrunCollect = captures.map((c) => ({ from: `${c.as}__each`, to: c.as, index }));
    for (const c of captures) c.as = `${c.as}__each`;
    const after = request.afterResponse === undefined ? [] : [request.afterResponse].flat();
    // Collected before the checks run: a failed check still leaves what was made, for a cleanup.
    request.afterResponse = ["flowrunCollect", ...after];
  }
  return {
    loop: items.map(({ item }) => item),
    over,
    loopElement: varName(place.flowIndex, foreach.as),
    loopValue: index,
  };
}

/** The request of an item, inside a polling loop too. */
function findRequest(item: Record<string, unknown>): Record<string, unknown> {
  const inner = item.loop as Record<string, unknown>[] | undefined;
  return inner ? findRequest(inner.at(-1)!) : Object.values(item)[0] as Record<string, unknown>;
}

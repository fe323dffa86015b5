/**
 * A UUID an answer produced, inside a longer header value: an htmx page's
 * edit sends `hx-target: edit-form-<the link's id>`, the id its list page
 * linked (`/stats?id=…`). A JSON answer's long values are already replaced
 * inside any text (producers.ts); a page's are captured only where sent
 * whole, so the header named the recorded row on another instance. A UUID
 * cannot match by chance: where an answer produced it, it is that answer's
 * capture inside the header too, as in the URL beside it.
 *
 * @module
 */
import type { Step } from "../model.ts";
import { useProducer } from "./captures.ts";
import type { Correlator } from "./state.ts";

const ANY_UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

/**
 * Each UUID inside `text` (not the whole of it) that an answer produced, with
 * its capture's template made when used.
 *
 * @example
 * ```ts
 * import { producedIdsIn } from "./inner_ids.ts";
 * import { newCorrelator } from "./pipeline.ts";
 * const c = newCorrelator("a");
 * // deno-lint-ignore no-explicit-any
 * if (producedIdsIn(c, "edit-form-0b4a8cad-02b9-455f-a1a7-bc3692844e9a", {} as any).length !== 0) throw new Error();
 * ```
 */
export function producedIdsIn(c: Correlator, text: string, step: Step): [string, () => string][] {
  const out: [string, () => string][] = [];
  for (const [id] of text.matchAll(ANY_UUID)) {
    const p = id === text ? undefined : c.rules.producerFor(id);
    if (p && !out.some(([seen]) => seen === id)) out.push([id, () => useProducer(c, p, step)]);
  }
  return out;
}

/**
 * Form fields whose value the page chose, not the user: a recorded page
 * whose form holds `<input type="checkbox" name="longlastingsession">`
 * says that what a later request sends as `longlastingsession` is the
 * box's own value (its `value`, `on` when it has none), whatever the field
 * is called. Shaarli's "remember me" box ends in SESSION, so it was taken
 * for a credential and asked of the user; sent as recorded, it is what the
 * box sends on every instance.
 *
 * @module
 */
import type { HarRecord } from "../har_model.ts";

/** A checkbox or radio input: its name and the value it sends when chosen. */
function choiceInput(tag: string): [string, string] | undefined {
  const attr = (name: string) => {
    const m = new RegExp(`\\s${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s"'>]+))`, "i").exec(tag);
    return m ? m[1] ?? m[2] ?? m[3] : undefined;
  };
  const type = attr("type")?.toLowerCase();
  const name = attr("name");
  if ((type !== "checkbox" && type !== "radio") || !name) return undefined;
  // A checkbox with no value attribute sends "on" (the HTML standard's default).
  return [name, attr("value") ?? "on"];
}

/**
 * The checkbox and radio inputs of the recorded pages of `records`: each
 * name with the values its inputs declare.
 *
 * @example
 * ```ts
 * import { choiceFields } from "./choice_fields.ts";
 * const page = { mimeType: "text/html", responseText: '<input type="checkbox" name="keep_session">' };
 * // deno-lint-ignore no-explicit-any
 * if (!choiceFields([page] as any).get("keep_session")?.has("on")) throw new Error();
 * ```
 */
export function choiceFields(records: readonly HarRecord[]): Map<string, Set<string>> {
  const fields = new Map<string, Set<string>>();
  for (const r of records) {
    if (r.responseText === undefined || !/html/.test(r.mimeType)) continue;
    for (const tag of r.responseText.matchAll(/<input\b[^>]{0,2000}>/gi)) {
      const input = choiceInput(tag[0]);
      if (!input) continue;
      const values = fields.get(input[0]) ?? new Set<string>();
      fields.set(input[0], values.add(input[1]));
    }
  }
  return fields;
}

/**
 * Adds the choice inputs of the pages of `records` to `c.choiceFields`.
 *
 * @example
 * ```ts
 * import { addChoiceFields } from "./choice_fields.ts";
 * const c = { choiceFields: new Map<string, Set<string>>() };
 * const page = { mimeType: "text/html", responseText: '<input type="radio" name="mode" value="a">' };
 * // deno-lint-ignore no-explicit-any
 * addChoiceFields(c, [page] as any);
 * if (!c.choiceFields.get("mode")?.has("a")) throw new Error();
 * ```
 */
export function addChoiceFields(
  c: { readonly choiceFields: Map<string, Set<string>> },
  records: readonly HarRecord[],
): void {
  for (const [name, values] of choiceFields(records)) {
    const known = c.choiceFields.get(name) ?? new Set<string>();
    for (const v of values) known.add(v);
    c.choiceFields.set(name, known);
  }
}

/**
 * Form fields whose value the page chose, not the user: a recorded page
 * whose form holds `<input type="checkbox" name="longlastingsession">`
 * says that what a later request sends as `longlastingsession` is the
 * box's own value (its `value`, `on` when it has none), whatever the field
 * is called. Shaarli's "remember me" box ends in SESSION, so it was taken
 * for a credential and asked of the user; sent as recorded, it is what the
 * box sends on every instance. So are the options of a `<select>`: Cacti's
 * `snmp_auth_protocol` (AUTH's word) sends `MD5`, one the page listed.
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

/** The `<select>`s of `html`: each name with the values of its options (an option's text when it has none). */
function selectOptions(html: string): [string, string[]][] {
  const found: [string, string[]][] = [];
  for (const select of html.matchAll(/<select\b([^>]{0,2000})>([\s\S]{0,100000}?)<\/select>/gi)) {
    const name = /\sname\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))/i.exec(select[1]);
    if (!name) continue;
    const values = [...select[2].matchAll(/<option\b([^>]{0,1000})>([^<]{0,200})/gi)].map((o) => {
      const value = /\svalue\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))/i.exec(o[1]);
      return value ? value[1] ?? value[2] ?? value[3] : o[2].trim();
    });
    found.push([name[1] ?? name[2] ?? name[3], values]);
  }
  return found;
}

/**
 * The checkbox and radio inputs and the select options of the recorded
 * pages of `records`: each name with the values they declare.
 *
 * @example
 * ```ts
 * import { choiceFields } from "./choice_fields.ts";
 * const page = { mimeType: "text/html", responseText: '<input type="checkbox" name="keep_session">' };
 * // deno-lint-ignore no-explicit-any
 * if (!choiceFields([page] as any).get("keep_session")?.has("on")) throw new Error();
 * const form = { mimeType: "text/html", responseText: "<select name='auth_protocol'><option value='MD5'>MD5</option></select>" };
 * // deno-lint-ignore no-explicit-any
 * if (!choiceFields([form] as any).get("auth_protocol")?.has("MD5")) throw new Error();
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
    for (const [name, options] of selectOptions(r.responseText)) {
      const values = fields.get(name) ?? new Set<string>();
      for (const v of options) values.add(v);
      fields.set(name, values);
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

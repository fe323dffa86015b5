/**
 * Form fields the user types in plain view: a recorded page whose form holds
 * `<input type="text" name="key">` (or an input of no type, which is text) says that what a
 * later request sends as `key` is words the user typed and read on the page, whatever the field
 * is called. Zabbix's item form names the item's key so (`harbour.load`), and KEY's word made it
 * a credential asked of the user. Only a value not shaped like a secret is taken so: a token
 * pasted into a text input stays asked for, and a field any page declares `type="password"`
 * stays a password (password_fields.ts).
 *
 * @module
 */
import type { HarRecord } from "../har_model.ts";

/** The name of a visible text input (`type="text"`, or none), else `undefined`. */
function textInput(tag: string): string | undefined {
  const attr = (name: string) => {
    const m = new RegExp(`\\s${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s"'>]+))`, "i").exec(tag);
    return m ? m[1] ?? m[2] ?? m[3] : undefined;
  };
  const type = attr("type")?.toLowerCase() ?? "text";
  return type === "text" ? attr("name") : undefined;
}

/**
 * The names of the visible text inputs of the recorded pages of `records`.
 *
 * @example
 * ```ts
 * import { textFields } from "./text_fields.ts";
 * const page = { mimeType: "text/html", responseText: '<input type="text" name="key"><input name="q">' };
 * // deno-lint-ignore no-explicit-any
 * const names = textFields([page] as any);
 * if (!names.has("key") || !names.has("q")) throw new Error();
 * const hidden = { mimeType: "text/html", responseText: '<input type="hidden" name="token">' };
 * // deno-lint-ignore no-explicit-any
 * if (textFields([hidden] as any).size !== 0) throw new Error();
 * ```
 */
export function textFields(records: readonly HarRecord[]): Set<string> {
  const names = new Set<string>();
  for (const r of records) {
    if (r.responseText === undefined || !/html/.test(r.mimeType)) continue;
    for (const tag of r.responseText.matchAll(/<input\b[^>]{0,2000}>/gi)) {
      const name = textInput(tag[0]);
      if (name) names.add(name);
    }
  }
  return names;
}

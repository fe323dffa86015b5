/**
 * Form controls the page names with made-up text: a form whose field names
 * the server derives from the session (a hash of the session id and the
 * field's number, `name="c391c788134920"`) takes a field only under the name
 * its own page wrote, so a name from the recorded session is no field of a
 * fresh one and the server answers as if it were left empty. Such a name is
 * a value the page hands out, like a hidden token: captured from the fresh
 * page and sent as the field's name. Evidence is where the name came from
 * (an input, select or textarea of an earlier page) and its shape (opaque
 * letters and digits, no word), never what it is called.
 *
 * @module
 */
import type { PageValue } from "./page_value.ts";

/**
 * Whether a field name is opaque made-up text: twelve or more hexadecimal
 * digits, or sixteen or more letters and digits mixed, with no separator.
 *
 * @example
 * ```ts
 * import { isMadeUpName } from "./page_named_controls.ts";
 * if (!isMadeUpName("c391c788134920") || !isMadeUpName("Zk3pQ9rT0vXw2yLm")) throw new Error();
 * if (isMadeUpName("password_confirm") || isMadeUpName("user2") || isMadeUpName("20261130")) {
 *   throw new Error();
 * }
 * ```
 */
export function isMadeUpName(name: string): boolean {
  if (!/\d/.test(name) || !/[a-z]/i.test(name)) return false;
  if (/^[0-9a-f]{12,64}$/.test(name) || /^[0-9A-F]{12,64}$/.test(name)) return true;
  return /^[0-9A-Za-z]{16,64}$/.test(name) && /[a-z]/.test(name) && /[A-Z]/.test(name);
}

/**
 * The made-up part a sent field name starts with: the whole name, or the
 * name before a suffix the page adds to one field's second box
 * (`3342937ea40b21-ext`); `undefined` when the name holds none.
 *
 * @example
 * ```ts
 * import { madeUpStem } from "./page_named_controls.ts";
 * if (madeUpStem("3342937ea40b21-ext") !== "3342937ea40b21") throw new Error();
 * if (madeUpStem("topicId") !== undefined) throw new Error();
 * ```
 */
export function madeUpStem(name: string): string | undefined {
  if (isMadeUpName(name)) return name;
  const stem = /^([0-9A-Za-z]+)(?:[-_[].*)$/.exec(name)?.[1];
  return stem !== undefined && isMadeUpName(stem) ? stem : undefined;
}

/** A character class and length that match names of the shape of `name`. */
function shapeOf(name: string): string {
  const letters = /^[0-9a-f]+$/.test(name)
    ? "0-9a-f"
    : /^[0-9A-F]+$/.test(name)
    ? "0-9A-F"
    : "0-9A-Za-z";
  return `[${letters}]{${name.length}}`;
}

/**
 * Adds to `out` the made-up names of the page's form controls (`<input>`,
 * `<select>`, `<textarea>`), each found again by the control of that shape
 * (pages.ts passes the ones before it: a fresh page lists its fields in the
 * same order). The quotes may be escaped, as in HTML a JSON string carries, and the
 * name may go on past the stem (`…-ext`, `…[]`).
 *
 * @example
 * ```ts
 * import { controlNames } from "./page_named_controls.ts";
 * import type { PageValue } from "./page_value.ts";
 * const out: PageValue[] = [];
 * controlNames('<input type="email" name="c391c788134920" value="">', out);
 * const m = new RegExp(out[0].pattern).exec('<input type="email" name="0a1b2c3d4e5f60">');
 * if (m?.[1] !== "0a1b2c3d4e5f60" || !out[0].state) throw new Error();
 * controlNames('<select name=\"6f7ffa2d0c25b6[]\">', out);
 * if (out[1]?.value !== "6f7ffa2d0c25b6") throw new Error();
 * ```
 */
export function controlNames(html: string, out: PageValue[]): void {
  const tags =
    /<(?:input|select|textarea)\b[^>]{0,2000}?\bname=\\?["']([0-9A-Za-z]{12,64})(?:[-_[][^"'\\]*)?\\?["']/gi;
  for (const m of html.matchAll(tags)) {
    const name = m[1];
    if (!isMadeUpName(name)) continue;
    const pattern = `<(?:input|select|textarea)\\b[^>]*?\\bname=\\\\?["'](${
      shapeOf(name)
    })(?:[-_[][^"'\\\\]*)?\\\\?["']`;
    out.push({ name: "field_name", value: name, pattern, secret: false, state: true });
  }
}

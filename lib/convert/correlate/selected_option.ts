/**
 * Options the page chose, not the user. A form may offer a select whose one
 * option is marked `selected` by the server, and the save sends it as the
 * page chose it: Postorius's "new domain" form preselects the instance's
 * current site (`<option value="1" selected>example.com (example.com)
 * </option>`). Its label is the instance's state (creating the domain
 * renames that site), so a capture by the label matches nothing on a fresh
 * instance, nor on a second run; what the page marks selected is what the
 * save sends on every instance.
 *
 * @module
 */
import { escapeRegExpSlash as escape } from "../../_util/regex_escape.ts";

/** `selected` in an option's attribute text, in each spelling HTML allows. */
const SELECTED = String.raw`\sselected(?:\s*=\s*(?:"selected"|'selected'|selected))?(?=[\s/>])`;

/** The value of an option's attributes, when it has one. */
function optionValue(attrs: string): string | undefined {
  const m = /\svalue\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))/i.exec(attrs);
  return m ? m[1] ?? m[2] ?? m[3] : undefined;
}

/**
 * The pattern whose first group is the value of the option that select
 * `key` of `html` marks as its one selected option, when that is `value`
 * and the select is a single choice (a `multiple` select's selection is the
 * user's); else `undefined`.
 *
 * @example
 * ```ts
 * import { selectedOptionPattern } from "./selected_option.ts";
 * const html = '<select name="site"><option value="1" selected>example.com</option></select>';
 * const p = selectedOptionPattern(html, "site", "1")!;
 * const later = html.replace('"1"', '"4"').replace("example.com", "Harbour");
 * if (new RegExp(p).exec(later)?.[1] !== "4") throw new Error(p);
 * ```
 */
export function selectedOptionPattern(
  html: string,
  key: string,
  value: string,
): string | undefined {
  const name = `name=["']${escape(key)}["']`;
  const select = new RegExp(`<select\\b([^>]*\\b${name}[^>]*)>([\\s\\S]*?)</select>`, "i")
    .exec(html);
  if (!select || /\smultiple\b/i.test(select[1])) return undefined;
  const selected = [...select[2].matchAll(/<option\b([^>]*)>/gi)]
    .filter((o) => new RegExp(SELECTED, "i").test(`${o[1]} `));
  if (selected.length !== 1 || optionValue(selected[0][1]) !== value) return undefined;
  const pattern = `<select\\b[^>]*\\b${name}[^>]*>(?:(?!</select>)[\\s\\S])*?` +
    `<option\\b(?=[^>]*${SELECTED})[^>]*\\bvalue=["'](\\d+)["']`;
  return new RegExp(pattern).exec(html)?.[1] === value ? pattern : undefined;
}

/**
 * How a server-rendered list writes a row's link and its text, as an HTML reader takes it. HTML
 * lets an attribute's value go unquoted (`<a href=ct.pl?action=edit&id=10069&db=customer>`, as
 * SQL-Ledger's Perl CGI writes every link): the value ends at a space or `>`. A cell may pad the
 * text the user typed with a non-breaking space (`Harbor Supplies&nbsp;</td>`): a reader sees
 * whitespace there, so the text is the row's all the same. Quoted links and plain padding are
 * read and written as before, so the patterns of those pages do not change.
 *
 * @module
 */
import { escapeRegExpSlash as escape } from "../../_util/regex_escape.ts";

/** One `href` of a row: the attribute as written, its value, and whether it was quoted. */
export type RowHref = { attr: string; value: string; quoted: boolean };

/** Whitespace a reader sees around a cell's text: spaces and non-breaking spaces, as written. */
const PADDED = /^(?:\s|&nbsp;|&#160;|\u00a0)+|(?:\s|&nbsp;|&#160;|\u00a0)+$/g;
/** The pattern of that whitespace. */
const NBSP_PAD = `(?:\\s|&nbsp;|&#160;|\\u00a0)*`;

/**
 * The `href` attributes of `html`, quoted or not, in order.
 *
 * @example
 * ```ts
 * import { rowHrefs } from "./row_markup.ts";
 * const [a, b] = rowHrefs("<a href=ct.pl?id=7&db=c>x</a> <a href='e.pl?id=8'>y</a>");
 * if (a.value !== "ct.pl?id=7&db=c" || a.quoted || b.value !== "e.pl?id=8" || !b.quoted) {
 *   throw new Error(JSON.stringify([a, b]));
 * }
 * ```
 */
export function rowHrefs(html: string): RowHref[] {
  const found = html.matchAll(/\bhref\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))/gi);
  return [...found].map((m) => ({
    attr: m[0],
    value: m[1] ?? m[2] ?? m[3],
    quoted: m[3] === undefined,
  }));
}

/**
 * The pattern of an `href` up to `rest` (a pattern that ends in the number's group), in the form
 * the recorded link was written: quoted (`["'][^"']*?`, as before) or bare, where the value ends
 * at a space or `>`.
 *
 * @example
 * ```ts
 * import { hrefHead } from "./row_markup.ts";
 * const p = new RegExp(hrefHead(false, "ct\\.pl\\?(?:[^\"'\\s>]*?[&;])?id=(\\d+)"));
 * if (p.exec("<a href=ct.pl?action=edit&id=10071&db=c>")?.[1] !== "10071") throw new Error();
 * ```
 */
export function hrefHead(quoted: boolean, rest: string): string {
  return quoted ? `\\bhref\\s*=\\s*["'][^"']*?${rest}` : `\\bhref\\s*=\\s*[^"'\\s>]*?${rest}`;
}

/** What may follow a link's number: its next parameter, its fragment or the value's end. */
export const hrefNumberEnd = (quoted: boolean): string => quoted ? `[&#"']` : `[&#\\s>]`;

/** A query's characters before a parameter, inside the link as it was written. */
export const hrefQuery = (quoted: boolean): string => quoted ? `[^"']*?` : `[^"'\\s>]*?`;

/**
 * The text of an element, without the whitespace a reader sees around it (`&nbsp;` too).
 *
 * @example
 * ```ts
 * import { cellText } from "./row_markup.ts";
 * if (cellText(" Harbor Supplies&nbsp;") !== "Harbor Supplies") throw new Error();
 * ```
 */
export function cellText(text: string): string {
  return text.replace(PADDED, "");
}

/**
 * The pattern of the padding around `text` in `row`: `\s*` where the row pads it with spaces
 * alone (the pattern as before), else spaces and non-breaking spaces as the page writes them.
 *
 * @example
 * ```ts
 * import { cellPad } from "./row_markup.ts";
 * if (cellPad("<td>Quay</td>", "Quay") !== "\\s*") throw new Error();
 * if (!new RegExp(`>${cellPad("<td>Quay&nbsp;</td>", "Quay")}<`).test(">&nbsp;<")) throw new Error();
 * ```
 */
export function cellPad(row: string, text: string): string {
  const cell = new RegExp(`>${NBSP_PAD}${escape(text)}${NBSP_PAD}<`).exec(row)?.[0] ?? "";
  return /&nbsp;|&#160;|\u00a0/.test(cell) ? NBSP_PAD : `\\s*`;
}

/**
 * The character references a page writes inside an attribute's quotes, read
 * back as a browser reads them: the value a form sends is the attribute's
 * text with `&lt;`, `&amp;`, `&#39;` and the like undone.
 *
 * @module
 */

/** The named references servers write when they escape a value; others are kept as written. */
const NAMED: Record<string, string> = {
  amp: "&",
  quot: '"',
  apos: "'",
  lt: "<",
  gt: ">",
};

/**
 * `text` with its numeric references and the five named ones an escaper
 * writes (`amp`, `quot`, `apos`, `lt`, `gt`) undone; another name, or an
 * `&` that starts none, is kept as written.
 *
 * @example
 * ```ts
 * import { htmlDecoded } from "./html_references.ts";
 * if (htmlDecoded("&lt;m.1@h&gt; &#39;&#x41;&amp;") !== "<m.1@h> 'A&") throw new Error();
 * if (htmlDecoded("a &nbsp; & b") !== "a &nbsp; & b") throw new Error();
 * ```
 */
export function htmlDecoded(text: string): string {
  return text.replace(/&(?:#(\d{1,7})|#x([0-9a-f]{1,6})|(\w+));/gi, (whole, dec, hex, name) => {
    const point = dec ? Number(dec) : hex ? parseInt(hex, 16) : undefined;
    if (point !== undefined) return point <= 0x10ffff ? String.fromCodePoint(point) : whole;
    return NAMED[name.toLowerCase()] ?? whole;
  });
}

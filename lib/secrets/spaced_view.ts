/**
 * A secret of several words (a passphrase) echoed with other whitespace
 * between its words than the one space it was sent with: a server that lays
 * text out joins words with a non-breaking space (U+00A0, U+2007, U+202F), a
 * tab, a line break or a run of spaces. The redactor registers each secret's
 * words joined by one space; this view of a text has every run of whitespace
 * read as one space, each mapped back to where the run stands, so the secret
 * is found there and masked with whatever whitespace the text holds. One pass
 * per view: the redactor stays linear.
 *
 * @module
 */
import { decodedViews, type View } from "./decode.ts";

/** Whitespace other than a lone space: what a view would change. */
const ODD_SPACE = /[^\S ]| {2}/;

/** Whether a UTF-16 unit is whitespace as `\s` reads it (the runs a view reads as one space). */
function isSpace(unit: number): boolean {
  if (unit < 0x80) return unit === 0x20 || (unit >= 0x09 && unit <= 0x0d);
  // Listed, not tested with a pattern per unit: a text of another script is mostly such units.
  return unit === 0xa0 || unit === 0x1680 || (unit >= 0x2000 && unit <= 0x200a) ||
    unit === 0x2028 || unit === 0x2029 || unit === 0x202f || unit === 0x205f || unit === 0x3000 ||
    unit === 0xfeff;
}

/**
 * `wanted` (which units a decoded view must produce to be worth building)
 * widened to every whitespace unit: an escape that writes a tab or a
 * non-breaking space (`\t`, `&nbsp;`) may stand between a passphrase's words.
 */
function wantingSpaces(wanted: (unit: number) => boolean): (unit: number) => boolean {
  return (unit) => wanted(unit) || (isSpace(unit) && wanted(0x20));
}

/** Lone surrogates survive: "utf-16le" without fatal keeps every unit as it is. */
const utf16 = new TextDecoder("utf-16le");

/** `text` (the text, or `outer`'s text mapped back through it) with each whitespace run one space. */
function collapsed(text: string, outer?: View): View {
  const from = new Int32Array(text.length);
  const to = new Int32Array(text.length);
  const units = new Uint16Array(text.length);
  let n = 0;
  for (let i = 0; i < text.length;) {
    let end = i + 1;
    const space = isSpace(text.charCodeAt(i));
    if (space) { while (end < text.length && isSpace(text.charCodeAt(end))) end++; }
    units[n] = space ? 0x20 : text.charCodeAt(i);
    // A hit that begins or ends with the space takes one unit of the run, not the text's
    // whitespace beside the secret; a hit across it takes it all.
    from[n] = outer ? outer.from[end - 1] : end - 1;
    to[n] = outer ? outer.to[i] : i + 1;
    n++;
    i = end;
  }
  return {
    text: utf16.decode(units.subarray(0, n)),
    from: from.subarray(0, n),
    to: to.subarray(0, n),
  };
}

/**
 * The views of `text` and of each of its decoded `views` with every run of
 * whitespace read as one space, mapped back to `text`: only of those that
 * hold other whitespace than single spaces.
 *
 * @example
 * ```ts
 * import { spacedViews } from "./spaced_view.ts";
 * const text = "pw=violet\u00a0\tharbor!";
 * const [view] = spacedViews(text, []);
 * const at = view.text.indexOf("violet harbor");
 * if (text.slice(view.from[at], view.to[at + 12]) !== "violet\u00a0\tharbor") throw new Error();
 * if (spacedViews("one space only", []).length !== 0) throw new Error();
 * ```
 */
export function spacedViews(text: string, views: readonly View[]): View[] {
  const out: View[] = [];
  if (ODD_SPACE.test(text)) out.push(collapsed(text));
  for (const view of views) if (ODD_SPACE.test(view.text)) out.push(collapsed(view.text, view));
  return out;
}

/**
 * Every view of `text` a secret of several words is looked for in besides
 * the text itself: its decoded views (see `decodedViews`, `wanted` widened to
 * whitespace) and the spaced views of the text and of each of them.
 *
 * @example
 * ```ts
 * import { textViews } from "./spaced_view.ts";
 * const all = () => true;
 * if (!textViews("a\u00a0 b", all).some((v) => v.text === "a b")) throw new Error();
 * // `&nbsp;` decodes to U+00A0, which no secret holds: the view is built all the same.
 * if (!textViews("a&nbsp;b", (u) => u !== 0xa0).some((v) => v.text === "a b")) throw new Error();
 * ```
 */
export function textViews(text: string, wanted: (unit: number) => boolean): View[] {
  const views = decodedViews(text, wantingSpaces(wanted));
  return [...views, ...spacedViews(text, views)];
}

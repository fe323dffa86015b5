/**
 * Readings of a text in which a long secret is found however a server
 * reshaped it without changing its characters: wrapped at a fixed width (a
 * PEM-like body at 64 columns, base64 at 76 with CRLF, a JSON string with
 * `\n` put in every few characters), each line break and the indent after it
 * read as nothing; and in any case of its letters (`tOK_9fK2Mq7R`), the text
 * read lower-cased against the secret's lower-cased forms. Only secrets of
 * `SHORT_SECRET` characters or more count there, and no hit that
 * is an ordinary word shorter than a piece: a PIN or a password `overview`
 * has other cases and neighbours that are words of their own (`Overview`),
 * while any 16 characters of a secret are the secret, in any case. One view
 * more per view of the text, each read once: the redactor stays linear.
 *
 * @module
 */
import type { View } from "./decode.ts";
import { isOrdinaryWord } from "./public_parts.ts";
import { PIECE, type Span } from "./secret_index.ts";

/**
 * A text to look for secrets in, how a hit there maps back to the text
 * (`undefined`: no hit after all), and whether a secret shorter than
 * `SHORT_SECRET` counts there.
 */
export interface Reading {
  /** The text as read. */
  readonly text: string;
  /** Where a hit `[s, e)` of {@linkcode text} stands in the text, if it counts. */
  readonly map: (s: number, e: number) => Span | undefined;
  /** Whether a short secret's hit counts (never in a loose reading). */
  readonly short: boolean;
}

/** Whether a UTF-16 unit ends a line. */
const isBreak = (unit: number) => unit === 0x0a || unit === 0x0d;

/** A line break, raw or escaped (`\n`, `\\r`): what a loose reading drops. */
const BREAK = /[\n\r]|\\[nr]/;

/** Lone surrogates survive: "utf-16le" without fatal keeps every unit as it is. */
const utf16 = new TextDecoder("utf-16le");

/** `unit` lower-cased, or as it is where that would change its length (`İ`). */
function lowered(unit: number): number {
  if (unit < 0x80) return unit >= 0x41 && unit <= 0x5a ? unit + 32 : unit;
  const one = String.fromCharCode(unit).toLowerCase();
  return one.length === 1 ? one.charCodeAt(0) : unit;
}

/**
 * `text` (mapped through `outer`) lower-cased, with every line break read as
 * nothing, raw or escaped, and the spaces and tabs after it (a wrapped value
 * indented under a label).
 */
function loosened(text: string, outer: View | undefined): View {
  const units = new Uint16Array(text.length);
  const from = new Int32Array(text.length);
  const to = new Int32Array(text.length);
  let n = 0;
  for (let i = 0; i < text.length;) {
    // A line break, raw or escaped (backslashes, then n or r), and the indent after it go.
    let j = i;
    while (text.charCodeAt(j) === 0x5c) j++;
    const unit = text.charCodeAt(j);
    if (j === i ? isBreak(unit) : unit === 0x6e || unit === 0x72) {
      for (i = j + 1; text[i] === " " || text[i] === "\t";) i++;
      continue;
    }
    // One unit, or a run of backslashes that escapes no break: text, each unit once.
    for (const end = Math.max(j, i + 1); i < end; i++, n++) {
      units[n] = lowered(text.charCodeAt(i));
      from[n] = outer ? outer.from[i] : i;
      to[n] = outer ? outer.to[i] : i + 1;
    }
  }
  return {
    text: utf16.decode(units.subarray(0, n)),
    from: from.subarray(0, n),
    to: to.subarray(0, n),
  };
}

/** A reading of `text` mapped through `view` (the text itself when none), exact or loose. */
function reading(text: string, view: View | undefined, loose: boolean): Reading {
  const back = (s: number, e: number): Span => view ? [view.from[s], view.to[e - 1]] : [s, e];
  if (!loose) return { text, map: back, short: true };
  // A loose hit that is an ordinary word (`overview` read in `Overview`) is another word.
  const map = (s: number, e: number) =>
    e - s < PIECE && isOrdinaryWord(text.slice(s, e)) ? undefined : back(s, e);
  return { text, map, short: false };
}

/**
 * The readings of `text` and of each of its `views` (decoded, spaced): each
 * exactly, then each loosely where that changes it: lower-cased, its line
 * breaks (raw, or escaped as `\n`) and the indent after them read as nothing.
 *
 * @example
 * ```ts
 * import { readings } from "./loose_view.ts";
 * const text = "key:\n  tOK_9fK2\r\n  Mq7R";
 * const [exact, loose] = readings(text, []);
 * if (exact.text !== text || loose.text !== "key:tok_9fk2mq7r" || loose.short) throw new Error();
 * const [s, e] = loose.map(4, 16)!;
 * if (text.slice(s, e) !== "tOK_9fK2\r\n  Mq7R") throw new Error();
 * if (loose.map(0, 3) !== undefined) throw new Error("an ordinary word read loosely");
 * if (readings("a\\nb", [])[1].text !== "ab" || readings("plain", []).length !== 1) throw new Error();
 * ```
 */
export function readings(text: string, views: readonly View[]): Reading[] {
  const out: Reading[] = [reading(text, undefined, false)];
  for (const view of views) out.push(reading(view.text, view, false));
  for (const base of [undefined, ...views]) {
    const baseText = base?.text ?? text;
    const lower = baseText.toLowerCase();
    // Most texts are one line: lower-cased, each unit stays where it stands (no copy to map).
    if (!BREAK.test(baseText) && lower.length === baseText.length) {
      if (lower !== baseText) out.push(reading(lower, base, true));
      continue;
    }
    const view = loosened(baseText, base);
    out.push(reading(view.text, view, true));
  }
  return out;
}

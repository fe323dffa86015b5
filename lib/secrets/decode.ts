/**
 * Decoded views of a text, each with a map back to the text's positions, so a
 * secret can be recognised inside whatever escaping a producer chose (JSON
 * `\uXXXX` for any character, `\/`, YAML's `\x37` and `\U…`, a backslash before
 * any other character, percent-encoding in either hex case,
 * HTML/XML entities, and nestings of these) and masked where it stands in
 * the original. Encoding every secret forward in every combination cannot
 * work: each character may or may not be escaped, so the forms multiply;
 * decoding once per text is linear.
 *
 * @module
 */

/** A decoded text; character `i` came from `text.slice(from[i], to[i])` of the original. */
export interface View {
  /** The decoded text. */
  text: string;
  /** Where each decoded UTF-16 unit starts in the original text. */
  from: Int32Array;
  /** Where each decoded UTF-16 unit ends in the original text. */
  to: Int32Array;
}

/**
 * Collects decoded units and their source ranges in typed arrays sized for
 * the source (no decoding here makes a text longer), so decoding a report of
 * megabytes allocates three arrays, not a string per character.
 */
class Builder {
  #units: Uint16Array;
  #from: Int32Array;
  #to: Int32Array;
  #length = 0;
  constructor(size: number) {
    this.#units = new Uint16Array(size);
    this.#from = new Int32Array(size);
    this.#to = new Int32Array(size);
  }
  /** Copies `text.slice(from, to)` unchanged, each unit mapped to itself. */
  pushRaw(text: string, from: number, to: number): void {
    let k = this.#length;
    for (let i = from; i < to; i++, k++) {
      this.#units[k] = text.charCodeAt(i);
      this.#from[k] = i;
      this.#to[k] = i + 1;
    }
    this.#length = k;
  }
  /** Pushes each UTF-16 unit of `s`, all mapped to one source range. */
  pushAll(s: string, from: number, to: number): void {
    for (let i = 0; i < s.length; i++) {
      const k = this.#length++;
      this.#units[k] = s.charCodeAt(i);
      this.#from[k] = from;
      this.#to[k] = to;
    }
  }
  view(): View {
    const n = this.#length;
    return {
      text: utf16.decode(this.#units.subarray(0, n)),
      from: this.#from.subarray(0, n),
      to: this.#to.subarray(0, n),
    };
  }
}

/** Lone surrogates survive: "utf-16le" without fatal keeps every unit as it is. */
const utf16 = new TextDecoder("utf-16le");

/**
 * One kind of escaping: the character every escape starts with, and what the
 * escape at a position decodes to with its length (undefined where that
 * character starts no escape, which then stays as it is).
 */
interface Decoder {
  starter: string;
  at(text: string, i: number): [decoded: string, length: number] | undefined;
}

const JSON_SIMPLE: Record<string, string> = {
  '"': '"',
  "\\": "\\",
  "/": "/",
  b: "\b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
};

/** `\u` takes four hex digits (JSON, YAML, JavaScript), `\x` two, `\U` eight (YAML, Python). */
const HEX_DIGITS: Record<string, number> = { u: 4, x: 2, U: 8 };
const HEX = /^[0-9A-Fa-f]+$/;
/** What cannot be escaped to itself: a line break ends the line an excerpt quotes. */
const NOT_ITSELF = /[\r\n]/;

/**
 * Backslash escapes wherever they appear (also outside string literals: harmless for matching):
 * JSON's, `\xHH` and `\UHHHHHHHH` (a YAML flow file, a program's error), and a backslash before
 * any other character meaning that character: an escape YAML rejects (`"Zq7\#x!"`, which the
 * user meant as `#`), a shell's `\!`, Markdown's `\_`.
 */
const BACKSLASH_ESCAPES: Decoder = {
  starter: "\\",
  at(text, i) {
    const next = text[i + 1];
    if (next === undefined || NOT_ITSELF.test(next)) return undefined;
    const digits = HEX_DIGITS[next];
    const hex = digits === undefined ? "" : text.slice(i + 2, i + 2 + digits);
    if (hex.length === digits && HEX.test(hex)) {
      const code = parseInt(hex, 16);
      return code > 0x10ffff ? undefined : [String.fromCodePoint(code), 2 + digits];
    }
    const point = String.fromCodePoint(text.codePointAt(i + 1)!);
    return [JSON_SIMPLE[next] ?? point, 1 + point.length];
  },
};

const HEX2 = /^%[0-9A-Fa-f]{2}$/;

/** Bytes of a UTF-8 sequence that starts with `lead`, or 0 when `lead` cannot start one. */
function sequenceLength(lead: number): number {
  if (lead < 0x80) return 1;
  if (lead >= 0xc2 && lead <= 0xdf) return 2;
  if (lead >= 0xe0 && lead <= 0xef) return 3;
  if (lead >= 0xf0 && lead <= 0xf4) return 4;
  return 0;
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

/** `%XX` escapes, UTF-8 sequences included; a `%` that does not decode stays as it is. */
const PERCENT_ESCAPES: Decoder = {
  starter: "%",
  at(text, i) {
    const byteAt = (j: number) =>
      HEX2.test(text.slice(j, j + 3)) ? parseInt(text.slice(j + 1, j + 3), 16) : -1;
    const lead = byteAt(i);
    const length = lead < 0 ? 0 : sequenceLength(lead);
    if (length === 0) return undefined;
    if (length === 1) return [String.fromCharCode(lead), 3];
    const bytes = [lead];
    for (let k = 1; k < length && byteAt(i + 3 * k) >= 0; k++) bytes.push(byteAt(i + 3 * k));
    if (bytes.length !== length) return undefined;
    try {
      return [utf8.decode(Uint8Array.from(bytes)), 3 * length];
    } catch {
      return undefined; // Not UTF-8: keep the text as it is.
    }
  },
};

const NAMED: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: "\u00a0",
  sol: "/",
  colon: ":",
  plus: "+",
  equals: "=",
  percnt: "%",
  num: "#",
};

const ENTITY = /^&(?:#[xX]([0-9A-Fa-f]{1,6})|#([0-9]{1,7})|([A-Za-z]{2,8}));/;

/** HTML/XML character references: named basics and numeric, decimal or hex. */
const ENTITY_ESCAPES: Decoder = {
  starter: "&",
  at(text, i) {
    const m = ENTITY.exec(text.slice(i, i + 12));
    if (!m) return undefined;
    const code = m[1] !== undefined
      ? parseInt(m[1], 16)
      : m[2] !== undefined
      ? parseInt(m[2], 10)
      : undefined;
    const named = m[3] === undefined ? undefined : NAMED[m[3].toLowerCase()];
    const decoded = code !== undefined && code <= 0x10ffff ? String.fromCodePoint(code) : named;
    return decoded === undefined ? undefined : [decoded, m[0].length];
  },
};

const DECODERS: Decoder[] = [BACKSLASH_ESCAPES, PERCENT_ESCAPES, ENTITY_ESCAPES];

/** Whether `text` holds the first character of any decoder's escapes. */
function hasStarter(text: string): boolean {
  for (const decoder of DECODERS) if (text.includes(decoder.starter)) return true;
  return false;
}

/**
 * Whether decoding `text` would produce any unit `wanted` accepts: a view
 * whose escapes all decode to characters no secret contains cannot hold a
 * secret the text itself does not (every match inside it would lie on
 * unchanged characters), so it is not built at all.
 */
function matters(decoder: Decoder, text: string, wanted: (unit: number) => boolean): boolean {
  for (let i = text.indexOf(decoder.starter); i !== -1; i = text.indexOf(decoder.starter, i + 1)) {
    const escape = decoder.at(text, i);
    if (escape === undefined) continue;
    const [decoded, length] = escape;
    for (let k = 0; k < decoded.length; k++) if (wanted(decoded.charCodeAt(k))) return true;
    i += length - 1;
  }
  return false;
}

/** The text with every escape of one kind undone. */
function decode(decoder: Decoder, text: string): View {
  const b = new Builder(text.length);
  let raw = 0;
  for (let i = text.indexOf(decoder.starter); i !== -1; i = text.indexOf(decoder.starter, i + 1)) {
    const escape = decoder.at(text, i);
    if (escape === undefined) continue;
    const [decoded, length] = escape;
    b.pushRaw(text, raw, i);
    b.pushAll(decoded, i, i + length);
    raw = i + length;
    i = raw - 1;
  }
  b.pushRaw(text, raw, text.length);
  return b.view();
}

/** How many decodings may be stacked: JSON in JSON in XML is the deepest the runner writes. */
const MAX_DEPTH = 3;

/** Maps a view of a view back to the original text. */
function compose(outer: View, inner: View): View {
  const from = new Int32Array(inner.text.length);
  const to = new Int32Array(inner.text.length);
  for (let i = 0; i < inner.text.length; i++) {
    from[i] = outer.from[inner.from[i]];
    to[i] = outer.to[inner.to[i] - 1];
  }
  return { text: inner.text, from, to };
}

/**
 * Every decoded view of `text` that differs from it: each decoder applied to
 * the text and, up to three deep, to the views before (`\u0026lt;` is found
 * through JSON then entities). The text itself is not included.
 *
 * `wanted` says which decoded UTF-16 units could be part of something the
 * caller looks for; a decoding whose escapes produce none of them is skipped
 * with everything stacked on it. The caller must count as wanted every unit
 * an escape is written with (`\\ % & ; #`, letters and digits), or views
 * built on a skipped one could be missed. Every stack that matters is
 * built: with three decodings, three deep, there are never more than 39, so
 * redaction stays linear in the text. (A cap of 10 missed a secret under
 * entities in JSON on a line that also held percent and entity escapes.)
 *
 * @example
 * ```ts
 * import { decodedViews } from "./decode.ts";
 * const text = '{"key":"a\\u002Bb"}';
 * const [json] = decodedViews(text);
 * const at = json.text.indexOf("a+b");
 * if (text.slice(json.from[at], json.to[at + 2]) !== "a\\u002Bb") throw new Error();
 * // Only a "+" could matter here, and "&quot;" decodes to a quotation mark.
 * if (decodedViews("say &quot;hi&quot;", (unit) => unit === 0x2b).length !== 0) throw new Error();
 * ```
 */
export function decodedViews(text: string, wanted: (unit: number) => boolean = () => true): View[] {
  // Most texts hold no escape at all: answer before building anything.
  if (!hasStarter(text)) return [];
  const views: View[] = [];
  const seen = new Set([text]);
  let layer: { view: View | undefined; text: string }[] = [{ view: undefined, text }];
  for (let depth = 0; depth < MAX_DEPTH && layer.length > 0; depth++) {
    const next: typeof layer = [];
    for (const { view, text: current } of layer) {
      for (const decoder of DECODERS) {
        if (!matters(decoder, current, wanted)) continue;
        const decoded = decode(decoder, current);
        if (seen.has(decoded.text)) continue;
        seen.add(decoded.text);
        const mapped = view ? compose(view, decoded) : decoded;
        views.push(mapped);
        next.push({ view: mapped, text: mapped.text });
      }
    }
    layer = next;
  }
  return views;
}

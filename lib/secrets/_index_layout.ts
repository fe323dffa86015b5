/**
 * The layout of the redactor's index (`redactor.ts`): the sizes of its
 * filters, the length classes of literals, the flags of the table's entries,
 * the rolling hashes a scan of a text moves one unit at a time, and the two
 * polynomial hashes (modulo 2³², different odd bases) the literal table and
 * the piece set key a stretch by, from scratch or rolled one unit on, with
 * no allocation per stretch. Private helper of `secrets/`.
 *
 * @example
 * ```ts
 * import { hash4, hash8, roll4, roll8 } from "./_index_layout.ts";
 * const text = "abcdefghij";
 * if (roll4(hash4(text, 0), text.charCodeAt(4)) !== hash4(text, 1)) throw new Error();
 * if (roll8(hash8(text, 0), text.charCodeAt(0), text.charCodeAt(8)) !== hash8(text, 1)) throw new Error();
 * ```
 *
 * @module
 */

/** Entries of the filter in front of the literal and piece indexes (1 MiB). */
export const FILTER_SIZE = 1 << 20;
const FILTER_MASK = FILTER_SIZE - 1;
/** Filter bit: a piece starts with these four characters. */
export const PIECE_BIT = 1;
/** Filter bit of the shortest length class; each longer class has the next bit. */
export const CLASS_BIT = 2;
/**
 * Literal lengths are grouped in classes of doubling size (4–7, 8–15, …,
 * 256 and up), one filter bit each, so a position is asked only about the
 * lengths of literals that may start there.
 */
export const LENGTH_CLASSES = [4, 8, 16, 32, 64, 128, 256];
/** Every length class's filter bit. */
export const CLASS_BITS = ((1 << LENGTH_CLASSES.length) - 1) * CLASS_BIT;

/** The length class of a literal of `length` units (four or more). */
export function classOf(length: number): number {
  let c = 0;
  while (c + 1 < LENGTH_CLASSES.length && length >= LENGTH_CLASSES[c + 1]) c++;
  return c;
}

/** Flag of the table's entries: a literal to mask. */
export const LITERAL_FLAG = 1;
/** Flag: a literal that is a base64 run (masked a little wider). */
export const BASE64_FLAG = 2;
/** A literal's beginning of 4, 8 or 16 units (shorter than the literal). */
export const PREFIX_FLAG = 8;
/** The longest beginning registered for a cut secret. */
export const LONGEST_PREFIX = 16;

/**
 * Units a decoded view is always built for, whatever the secrets: those an
 * escape is written with (a decoded one may start or complete another escape
 * in a stacked view), those of a JSON Web Token (masked by shape, registered
 * or not) and the `…` a cut secret ends at.
 */
export const ESCAPE_UNITS = (() => {
  const units = new Uint8Array(0x10000);
  for (const c of "\\%&;#_.-…") units[c.charCodeAt(0)] = 1;
  for (const [from, to] of [["0", "9"], ["A", "Z"], ["a", "z"]]) {
    for (let u = from.charCodeAt(0); u <= to.charCodeAt(0); u++) units[u] = 1;
  }
  return units;
})();

/** Bits of the filter of the first eight characters of pieces and long literals (512 KiB). */
const STARTS8_LOG2 = 22;
/** Bits of that filter. */
export const STARTS8_BITS = 1 << STARTS8_LOG2;

/** Base of the eight-character polynomial hash, and its seventh power (what the unit leaving weighs). */
const P8 = 0x01000193;
const P8_7 = (() => {
  let p = 1;
  for (let k = 0; k < 7; k++) p = Math.imul(p, P8);
  return p;
})();

/**
 * The polynomial hash of the eight characters of `text` at `at`: rollable,
 * so a scan that asks at many positions pays two multiplications a step
 * (see {@linkcode roll8}); {@linkcode bit8} picks the filter bit.
 */
export function hash8(text: string, at: number): number {
  let h = 0;
  for (let k = at; k < at + 8; k++) h = (Math.imul(h, P8) + text.charCodeAt(k)) | 0;
  return h;
}

/** {@linkcode hash8} moved one unit on: `out` leaves, `next` enters. */
export function roll8(h: number, out: number, next: number): number {
  return (Math.imul((h - Math.imul(out, P8_7)) | 0, P8) + next) | 0;
}

/** {@linkcode hash8} at `from` rolled forward to `to` (at most eight units on: cheaper than afresh). */
export function rollTo(h: number, text: string, from: number, to: number): number {
  for (let at = from; at < to; at++) h = roll8(h, text.charCodeAt(at), text.charCodeAt(at + 8));
  return h;
}

/** The `starts8` bit (see the Redactor) of a {@linkcode hash8}: mixed, so every unit reaches the top bits kept. */
export function bit8(h: number): number {
  return Math.imul(h ^ (h >>> 15), 0x2c1b3c6d) >>> (32 - STARTS8_LOG2);
}

/** A filter index for the four characters of `text` at `at`: cheap, collisions are resolved by the index. */
export function hash4(text: string, at: number): number {
  return ((text.charCodeAt(at) << 15) ^ (text.charCodeAt(at + 1) << 10) ^
    (text.charCodeAt(at + 2) << 5) ^ text.charCodeAt(at + 3)) & FILTER_MASK;
}

/** {@linkcode hash4} moved one unit on, `next` entering: the oldest falls off the top of the mask. */
export function roll4(h: number, next: number): number {
  return ((h << 5) ^ next) & FILTER_MASK;
}

/** The first hash's base. */
export const BASE1 = 0x01000193;
/** The second hash's base. */
export const BASE2 = 0x5bd1e995;

/**
 * The first hash of the last {@linkcode hashRange} call: module variables,
 * read live by importers (a property of a shared object made every lookup
 * of the redactor 10–15 % slower).
 */
export let hash1 = 0;
/** The second hash of the last {@linkcode hashRange} call. */
export let hash2 = 0;

/**
 * Hashes the `length` units of `text` at `at` into {@linkcode hash1} and
 * {@linkcode hash2}.
 *
 * @example
 * ```ts
 * import * as layout from "./_index_layout.ts";
 * layout.hashRange("xabc", 1, 3);
 * const first = layout.hash1;
 * layout.hashRange("abc", 0, 3);
 * if (layout.hash1 !== first) throw new Error();
 * ```
 */
export function hashRange(text: string, at: number, length: number): void {
  let x = 0;
  let y = 0;
  for (let i = at; i < at + length; i++) {
    const c = text.charCodeAt(i);
    x = (Math.imul(x, BASE1) + c) | 0;
    y = (Math.imul(y, BASE2) + c) | 0;
  }
  hash1 = x;
  hash2 = y;
}

/**
 * Calls `visit` with the two hashes of every stretch of `length` units of
 * `text`, in order: one pass, each hash rolled on by a unit instead of
 * hashed from scratch.
 *
 * @example
 * ```ts
 * import * as layout from "./_index_layout.ts";
 * const seen: number[] = [];
 * layout.eachStretch("abcd", 2, (x) => seen.push(x));
 * layout.hashRange("cd", 0, 2);
 * if (seen.length !== 3 || seen[2] !== layout.hash1) throw new Error();
 * ```
 */
export function eachStretch(
  text: string,
  length: number,
  visit: (first: number, second: number) => void,
): void {
  if (length <= 0 || length > text.length) return;
  // BASE^(length-1): what the unit leaving the window weighs in each hash.
  let top1 = 1;
  let top2 = 1;
  for (let k = 1; k < length; k++) {
    top1 = Math.imul(top1, BASE1);
    top2 = Math.imul(top2, BASE2);
  }
  hashRange(text, 0, length);
  let x = hash1;
  let y = hash2;
  for (let at = 0;; at++) {
    visit(x, y);
    if (at + length >= text.length) return;
    const out = text.charCodeAt(at);
    const next = text.charCodeAt(at + length);
    x = (Math.imul((x - Math.imul(out, top1)) | 0, BASE1) + next) | 0;
    y = (Math.imul((y - Math.imul(out, top2)) | 0, BASE2) + next) | 0;
  }
}

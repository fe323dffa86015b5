/**
 * The two polynomial hashes (modulo 2³², different odd bases) the secret
 * index keys its stretches by, computed in place over a text, from scratch
 * or rolled one unit on; no allocation per stretch.
 *
 * @module
 */

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
 * import { hash1, hashRange } from "./_stretch_hash.ts";
 * hashRange("xabc", 1, 3);
 * const first = hash1;
 * hashRange("abc", 0, 3);
 * if (hash1 !== first) throw new Error();
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
 * import { eachStretch, hash1, hashRange } from "./_stretch_hash.ts";
 * const seen: number[] = [];
 * eachStretch("abcd", 2, (x) => seen.push(x));
 * hashRange("cd", 0, 2);
 * if (seen.length !== 3 || seen[2] !== hash1) throw new Error();
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

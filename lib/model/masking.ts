/**
 * What code that shows values to people needs of the run's secrets: a value
 * is masked before it is cut, never after, since a secret cut short is no
 * longer recognisable. The run's `Redactor` (in `secrets/`) is one; checks,
 * responses and messages take this interface, so nothing below `secrets/`
 * needs it just to display a value.
 *
 * @module
 */

/** The ellipsis that ends a shortened text. */
const CUT = "…";

/**
 * Masks text, then shortens it.
 *
 * @example
 * ```ts
 * import { type Masking, PLAIN } from "./masking.ts";
 * const masking: Masking = PLAIN;
 * if (masking.shorten("abcdef", 4) !== "abc…") throw new Error();
 * ```
 */
export interface Masking {
  /** `text` with every secret it holds masked. */
  redact(text: string): string;
  /** The masked text, shortened to at most `max` characters (code points) ending in `…`. */
  shorten(text: string, max: number): string;
  /** The masked text's first `keep` characters and `…` when it is longer than `limit` (default `keep`). */
  head(text: string, keep: number, limit?: number): string;
}

/**
 * Keeps the first `keep` characters (code points) of an already masked text,
 * followed by `…`, when it is longer than `limit`. A cut never splits a mask
 * (`***`) or a surrogate pair.
 *
 * @example
 * ```ts
 * import { headOf } from "./masking.ts";
 * if (headOf("id *** end", 4) !== "id …") throw new Error(headOf("id *** end", 4));
 * if (headOf("abcdef", 5) !== "abcde…" || headOf("abcde", 5) !== "abcde") throw new Error();
 * ```
 */
export function headOf(masked: string, keep: number, limit = keep): string {
  if (masked.length <= limit) return masked;
  const chars = Array.from(masked);
  if (chars.length <= limit) return masked;
  let cut = Math.max(0, keep);
  // Back off so a mask is either whole or gone, never a "**" that reads like text.
  while (cut > 0 && chars[cut - 1] === "*" && chars[cut] === "*") cut--;
  return chars.slice(0, cut).join("") + CUT;
}

/**
 * The masking of a value shown without a run: nothing is secret, values are
 * only shortened (the default of check messages; a run passes its redactor).
 *
 * @example
 * ```ts
 * import { PLAIN } from "./masking.ts";
 * if (PLAIN.redact("token abc") !== "token abc") throw new Error();
 * if (PLAIN.shorten("abcdefghijkl", 5) !== "abcd…") throw new Error();
 * if (PLAIN.head("abcdef", 3) !== "abc…") throw new Error();
 * ```
 */
export const PLAIN: Masking = {
  redact: (text) => text,
  shorten: (text, max) => headOf(text, max - 1, max),
  head: headOf,
};

/**
 * `${RANDOM.ALPHA_<n>}`: random lowercase letters, for fields a server takes
 * letters in only (a name, a code of letters), as collections make them with
 * `_.sampleSize('abc…z', n).join('')` or a loop over a letters-only alphabet;
 * `${RANDOM.UPPER_<n>}`: the same in capitals.
 *
 * @module
 */

/**
 * `length` random lowercase letters, `a` to `z`.
 *
 * @example
 * ```ts
 * import { randomLetters } from "./letters.ts";
 * if (!/^[a-z]{12}$/.test(randomLetters(12))) throw new Error();
 * ```
 */
export function randomLetters(length: number): string {
  let out = "";
  // Each letter from a byte below 234 (9 × 26), so that every letter is as likely.
  for (let tries = 0; out.length < length && tries < 64; tries++) {
    for (const byte of crypto.getRandomValues(new Uint8Array(length * 2))) {
      if (byte < 234 && out.length < length) out += String.fromCharCode(97 + (byte % 26));
    }
  }
  return out;
}

/**
 * `length` random capital letters, `A` to `Z`: `${RANDOM.UPPER_<n>}`, for a
 * code a server takes in capitals only, as collections make one from
 * `'ABC…Z'` or with `.toUpperCase()`.
 *
 * @example
 * ```ts
 * import { randomCapitals } from "./letters.ts";
 * if (!/^[A-Z]{12}$/.test(randomCapitals(12))) throw new Error();
 * ```
 */
export function randomCapitals(length: number): string {
  return randomLetters(length).toUpperCase();
}

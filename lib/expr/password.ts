/**
 * `${RANDOM.PASSWORD}`: a fresh password that the strength rules servers
 * apply take on every draw, so that a made-up account is never refused by
 * chance. `Pw-${RANDOM.HEX_16}` was refused by Unleash's OWASP rules in about
 * one run of twenty: sixteen hex digits hold three equal ones in a row that
 * often, and a draw of letters alone has no digit.
 *
 * @module
 */

/** The classes, taken in turn: a character never meets another of its class. */
const CLASSES = [
  "ABCDEFGHJKLMNPQRSTUVWXYZ",
  "abcdefghijkmnpqrstuvwxyz",
  "23456789",
  "!-_",
];

/** The password's length: past the minimum of common rules (8 to 12), under common maximums. */
const LENGTH = 16;

/**
 * A password of 16 characters from the platform's secure generator: upper and
 * lower case letters, digits and a sign (`!`, `-` or `_`), four of each, in
 * turn; no character next to one of its own class, so no repeat and no
 * run (`aaa`, `abc`, `123`) that rules refuse. Letters and digits that look
 * alike (`I`, `l`, `O`, `o`, `0`, `1`) are left out. About 70 bits.
 *
 * @example
 * ```ts
 * import { randomPassword } from "./password.ts";
 * const p = randomPassword();
 * const classes = [/[A-Z]/, /[a-z]/, /[0-9]/, /[^A-Za-z0-9]/];
 * if (p.length !== 16 || !classes.every((c) => c.test(p)) || /(.)\1/.test(p)) throw new Error(p);
 * if (randomPassword() === p) throw new Error("not fresh");
 * ```
 */
export function randomPassword(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(LENGTH * 4));
  const start = bytes[0] % CLASSES.length;
  let out = "";
  let b = 1;
  for (let i = 0; out.length < LENGTH; i++) {
    const chars = CLASSES[(start + out.length) % CLASSES.length];
    // Bytes past the last whole multiple of the class's size would favour its first characters.
    const limit = 256 - (256 % chars.length);
    const byte = b < bytes.length ? bytes[b++] : crypto.getRandomValues(new Uint8Array(1))[0];
    if (byte < limit) out += chars[byte % chars.length];
    if (i > LENGTH * 64) {
      throw new Error("The secure random generator kept drawing unusable bytes.");
    }
  }
  return out;
}

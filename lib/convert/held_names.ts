/**
 * What a user holds, read from a name's words: the rule both the two-recording judge (a value
 * equal in both recordings) and a single recording's page-made values (correlate/) ask, kept
 * below both so neither imports the other.
 *
 * @module
 */
import { isSecretName, nameWords } from "../secrets/mod.ts";

/** Word endings of what a user holds; `bypass` and `compass` are kept out by the secret rule. */
const HELD_ENDING = /(?:PASS|PASSWORD|PASSWD|PWD|PASSPHRASE|PASSCODE|SECRET|CREDENTIAL|APIKEY)S?$/;
/** Word beginnings no everyday word has: `passwordconfirm`, `pwdhash`, `otpcode`. */
const HELD_START = /^(?:PASSWORD|PASSWD|PASSPHRASE|PASSCODE|PWD|PRIVATE|CREDENTIAL|OTP)/;
/** Short credentials that count only as a whole word: `pin` is no part of `spin`. */
const HELD_WORD = new Set(["PIN", "PINCODE", "OTP", "TOTP", "HOTP", "PRIVATE"]);
/** Headers that carry what a user holds, whole. */
const HELD_HEADER = new Set(["authorization", "proxy-authorization", "cookie"]);

/**
 * Whether a name is that of what a user holds (a password, a PIN, a one-time code, an API key,
 * a client secret, an `Authorization` header): equal in every recording by nature, so equality
 * says nothing about its being secret; it stays a variable. The rule reads whole words (split as
 * {@linkcode nameWords} splits, a trailing number dropped: `password2`), because matching letters
 * anywhere took `footprint` and `hotpot` for one-time codes, `spin` for a PIN and `passage` for a
 * password, and asked what the user typed there as a secret.
 *
 * @example
 * ```ts
 * import { isHeldByUser } from "./held_names.ts";
 * for (const held of ["pin", "otp_code", "passcode", "apiKey", "X-Api-Key", "new_password2"]) {
 *   if (!isHeldByUser(held)) throw new Error(held);
 * }
 * for (const data of ["session_spin", "footprint", "passage_title", "compass", "author_token"]) {
 *   if (isHeldByUser(data)) throw new Error(data);
 * }
 * ```
 */
export function isHeldByUser(name: string): boolean {
  if (HELD_HEADER.has(name.trim().toLowerCase())) return true;
  const ws = nameWords(name).map((w) => w.replace(/\d+$/, ""));
  return ws.some((w, i) =>
    HELD_WORD.has(w) || HELD_START.test(w) || (/^KEYS?$/.test(w) && ws[i - 1] === "API") ||
    (HELD_ENDING.test(w) && isSecretName(w))
  );
}

/**
 * What the user typed, told apart from what they hold, when two recordings of one journey sent a
 * value under a name holding a secret-looking word.
 *
 * @module
 */
import { isSecretKey } from "../secrets/mod.ts";
import { isHeldByUser } from "./held_names.ts";
import type { TwoRecordingsCorrelator } from "./two_recordings_judge.ts";
import { isSecretShaped } from "./values.ts";

/**
 * Whether a value that differs between the two recordings (`value`, then `other`) under a
 * secret-looking name is what the user typed as data (a meeting's `session_title`, a token's
 * `api_token_label`): neither recording sent it shaped like a secret (words, a phrase, a number)
 * and no password input took it. The name breaks the tie only for what a user holds (`password`,
 * `signing_key`, `password_hint`), which stays a secret however it reads, as does an OAuth `code`.
 * The caller has seen that no response produced it.
 *
 * @example
 * ```ts
 * import { typedData } from "./two_recordings_typed.ts";
 * import { newTwoRecordingsCorrelator } from "./two_recordings_correlate.ts";
 * import { alignRecords, Evidence } from "./two_recordings.ts";
 * const t = newTwoRecordingsCorrelator("a", new Evidence(alignRecords([], [])));
 * if (!typedData(t, "session_title", "Morning standup", "Evening review")) throw new Error();
 * if (typedData(t, "signing_key", "sunflower", "moonlight")) throw new Error();
 * if (typedData(t, "csrf_nonce", "9f3a1c7e5b2d4f6a", "1b2c3d4e5f607182")) throw new Error();
 * ```
 */
export function typedData(
  t: TwoRecordingsCorrelator,
  key: string,
  value: string,
  other: string,
): boolean {
  return !/^(code|code_verifier)$/.test(key) && !isHeldByUser(key) && !isSecretKey(key) &&
    !t.passwordFields.has(key) && !t.typed.has(value) && !isSecretShaped(value) &&
    !isSecretShaped(other);
}

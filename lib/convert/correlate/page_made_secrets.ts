/**
 * A random UUID the page made, sent under a name that sounds like a secret. SQLPad's query
 * editor sends `cacheKey: <uuid v4>` with every run of a query, and its users page sends
 * `passwordResetId: <uuid v4>` to make a reset link; the answers echo both. Asked for by their
 * names (`…Key`, `password…`), they were variables to set, and the flow was refused before
 * sending: nobody holds a value the page drew at random. A value is a secret by what it is and
 * where it came from: a UUID v4 no earlier answer produced, sent again or echoed later
 * (`isMadeId`), is the run's own, one value per run. Only a name that says a user holds it (a
 * password, an API key, a PIN: `isHeldByUser`) keeps it asked, unless its last word is `id`,
 * which names the record a credential belongs to, not the credential. A value typed into a
 * password input stays asked whatever it looks like. A random hex token the page drew (Cronicle's
 * API key, `made_tokens.ts`) is judged the same way.
 *
 * @module
 */
import { isSecretName } from "../../secrets/mod.ts";
import { isHeldByUser } from "../held_names.ts";
import { isMadeId } from "./made_ids.ts";
import { isMadeToken } from "./made_tokens.ts";
import type { Correlator } from "./state.ts";
import { keyWords } from "./worded_fields.ts";

/** A UUID v4 (RFC 4122 variant), whole: what `crypto.randomUUID()` makes. */
const RANDOM_UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

/**
 * Whether `value`, sent under the secret-sounding `key`, is a UUID or hex token the page made and
 * no user holds: made fresh each run instead of asked.
 *
 * @example
 * ```ts
 * import { isPageMadeSecret } from "./page_made_secrets.ts";
 * import { newCorrelator } from "./pipeline.ts";
 * const c = newCorrelator("a");
 * const id = "0271f9bd-c1f7-4c27-8f3b-a5a026ee7630";
 * c.uuidEchoed.add(id);
 * if (!isPageMadeSecret(c, "passwordResetId", id) || !isPageMadeSecret(c, "cacheKey", id)) {
 *   throw new Error();
 * }
 * if (isPageMadeSecret(c, "apiKey", id) || isPageMadeSecret(c, "new_password", id)) throw new Error();
 * c.madeTokens.add("4be1c07a9d3f58e26a0b7c1d9e8f2a35");
 * if (!isPageMadeSecret(c, "key", "4be1c07a9d3f58e26a0b7c1d9e8f2a35")) throw new Error();
 * ```
 */
export function isPageMadeSecret(c: Correlator, key: string, value: string): boolean {
  if (!isSecretName(key) || c.passwordFields.has(key)) return false;
  if (!(RANDOM_UUID.test(value) ? isMadeId(c, value) : isMadeToken(c, value))) return false;
  return !isHeldByUser(key) || /^ids?$/i.test(keyWords(key).at(-1) ?? "");
}

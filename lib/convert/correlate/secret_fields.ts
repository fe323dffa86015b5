/**
 * A field or parameter whose name says a user types a credential into it (`password`, `api_key`):
 * the value is asked of the user as a variable named for its step, unless it is data under a key's
 * name (a lookup key, a view's `keys`) or the run chose it.
 *
 * @module
 */
import { CREDENTIAL_KEY, isKeyData, isSecretName } from "../../secrets/mod.ts";
import type { Step } from "../model.ts";
import { envName } from "../names.ts";
import { DESCRIBES_CREDENTIAL } from "../values.ts";
import { isWords } from "./lookup_fields.ts";
import { notAsked } from "./not_asked.ts";
import { type Correlator, secretEnv, type Where } from "./state.ts";
import { typedOnce } from "./typed_once.ts";
import { keyWords } from "./worded_fields.ts";

/**
 * A secret-named field or parameter: a required variable named for its step (or LOGIN).
 *
 * @example
 * ```ts
 * import { secretField } from "./secret_fields.ts";
 * import { correlate } from "./mod.ts";
 * const c = correlate([], [], "a");
 * const step = { name: "sign_up" } as never;
 * const got = secretField(c, "api_key", "k-93f1c2", step, { body: true } as never);
 * if (got !== "${ENV.SIGN_UP_API_KEY}") throw new Error(got);
 * if (secretField(c, "sort_key", "created_at", step, { body: true } as never)) throw new Error();
 * ```
 */
export function secretField(
  c: Correlator,
  key: string,
  value: string,
  step: Step,
  where: Where,
): string | undefined {
  const typed = c.passwordFields.has(key);
  // A password the run chooses (chosen_passwords.ts) is its generated var, not asked.
  const chosen = c.generated.has(value);
  if (value === "" || chosen || !(credentialField(key) || typed) || lookupKey(c, key, value)) {
    return undefined;
  }
  if (notAsked(c, key, value, step, where)) return undefined;
  const prefix = where.login ? "LOGIN" : envName(step.name);
  // A password input (`p`, `pwd`, `user_pass`) is asked for as what the page says it is.
  const field = typed ? "PASSWORD" : envName(key);
  const base = field.startsWith(`${prefix}_`) ? field : `${prefix}_${field}`;
  c.replaced.secrets++;
  // The same value typed twice into one step's body (a new password and its confirmation) is one,
  // and typed again in a later step (a change's current password) is the earlier variable.
  const twin = where.body ? askedInStep(c, prefix, value) : undefined;
  const about = `the "${key}" ${where.body ? "field" : "parameter"} sent by step "${step.name}"`;
  return c.sp.envRef(
    twin ?? typedOnce(c, value, () => secretEnv(c, where.body ? base : field, value, about)),
  );
}

/** The variable a field of the step named `prefix` already asks for holding `value`, if any. */
function askedInStep(c: Correlator, prefix: string, value: string): string | undefined {
  // The first such key a walk of every key would meet, found by its start and end (env_values.ts).
  const [key] = c.envByValue.startingEnding(`${prefix}_`, value);
  return key === undefined ? undefined : c.envByValue.get(key);
}

/** Whether a field's name says the user types a credential into it. */
function credentialField(key: string): boolean {
  if (!isSecretName(key)) return false;
  // Brackets part words too: `index[Key_name]` names a key, its last word `name`.
  const last = keyWords(key).at(-1) ?? "";
  return !DESCRIBES_CREDENTIAL.test(last);
}

/**
 * Whether a field named a key holds a lookup key, not a credential: an API
 * or access key is random by construction (issued, never typed), while a
 * hash, sort or translation key is words and counts. AngularJS writes
 * `$$hashKey: "object:440"` into every object its GUI sends back (Syncthing's
 * config), which asked nine variables of one recording. Only the word "key"
 * makes the name secret; a password of a word and a number is still one. A
 * bare `key` is a credential whatever a docs example typed into it, unless
 * the session sends it with several words (lookup_fields.ts).
 */
function lookupKey(c: Correlator, key: string, value: string): boolean {
  // A view's `keys=["a","b"]`, a range's `startkey`: data, whatever the name (key_data.ts).
  if (isKeyData(key, value)) return true;
  const words = key.split(/[_.\s$-]+|(?<=[a-z0-9])(?=[A-Z])/).filter((w) => w !== "");
  const before = words.slice(0, -1);
  if (!/^keys?$/i.test(words.at(-1) ?? "") || isSecretName(before.join("_"))) return false;
  if (before.length === 0) return c.lookupFields.has(key);
  // `api_key`, `access_key`: a credential whatever a docs example typed into it.
  if (before.some((w) => CREDENTIAL_KEY.test(w))) return false;
  return isWords(value);
}

/**
 * Values sent under a name that says "key" but that are data, not a
 * credential: a secret is what the user typed or a server issued, never "a
 * value under a key named *key*". CouchDB's documentation queries views with
 * `?keys=["a","b"]`, `?startkey="a"&endkey="b"` and `?key=5`, and each was
 * asked for as a secret because its name holds the word.
 *
 * @module
 */
import { isSecretKey, isSecretName } from "./names.ts";
import { isOrdinaryWord } from "./public_parts.ts";

/** Words that, before "key", name a credential: an API key, an access key, a client's. */
const CREDENTIAL_WORDS =
  "api|access|auth|client|consumer|developer|license|licence|master|private|secret|service|session|signing|subscription|app|account|user|encryption";

/**
 * A word that, before "key", makes the key a credential's (`api_key`, `access_key`), whatever
 * a docs example typed into it.
 */
export const CREDENTIAL_KEY: RegExp = new RegExp(`^(?:${CREDENTIAL_WORDS})$`, "i");

/** The same words fused with "key" into one (`apikey`, `accessKeys` once split). */
const FUSED_CREDENTIAL = new RegExp(`^(?:${CREDENTIAL_WORDS})keys?$`, "i");

/** A range's bound or a page's cursor over keys: `startkey`, `end_key`, `startKey`, `lastKey`. */
const RANGE_KEY =
  /^(?:start|end|from|to|min|max|first|last|next|prev|previous|after|before|since|until|lower|upper)keys?$/i;

/** Splits on `_`, `-`, `.`, `$`, spaces and where a lower-case letter meets an upper-case one. */
const words = (name: string) =>
  name.split(/[_.\s$-]+|(?<=[a-z0-9])(?=[A-Z])/).filter((w) => w !== "");

/** Whether only a "key" word makes `name` secret, and no credential's word comes with it. */
function keyOnly(name: string): boolean {
  const all = words(name);
  if (all.some((w) => CREDENTIAL_KEY.test(w) || FUSED_CREDENTIAL.test(w))) return false;
  const rest = all.filter((w) => !/keys?$/i.test(w));
  return rest.length < all.length && !isSecretName(rest.join("_"));
}

/**
 * Whether `value` is JSON text: a quoted string, an array, an object, a short number, `true`,
 * `false` or `null`. Nobody quotes an issued token; a view's keys are written as JSON.
 */
function jsonShaped(value: string): boolean {
  const text = value.trim();
  if (/^(?:true|false|null)$/.test(text) || /^-?\d{1,15}(?:\.\d+)?$/.test(text)) return true;
  if (!/^["[{]/.test(text)) return false;
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * Whether `value`, sent under `name`, is data although the name says "key":
 * the name is secret only for a lookup's "key" word (never `api_key`,
 * `access_key`, `token_key`), and it is a range's bound (`startkey`,
 * `end_key`) or the value is JSON-shaped (`["a","b"]`, `"apple"`, `5`). A
 * random value under a bare `key` (`AIza…`) stays a credential.
 *
 * @example
 * ```ts
 * import { isKeyData } from "./key_data.ts";
 * if (!isKeyData("keys", '["a","b"]') || !isKeyData("startkey", "a") || !isKeyData("key", "5")) {
 *   throw new Error();
 * }
 * if (isKeyData("key", "AIzaSyD-9tSrke72PouQMnMX") || isKeyData("api_key", '"x"')) throw new Error();
 * ```
 */
export function isKeyData(name: string, value: string): boolean {
  if (!keyOnly(name)) return false;
  return RANGE_KEY.test(words(name).join("")) || jsonShaped(value);
}

/**
 * Whether `value` is shaped like an issued key: 16 or more letters and digits, not all of them
 * words and numbers (`sk_test_4eC3…`, a UUID, a JWT; not `mail.smtp_host.default_sender`).
 */
function keyShaped(value: string): boolean {
  const runs = value.match(/[A-Za-z0-9]+/g) ?? [];
  if (runs.join("").length < 16) return false;
  return runs.some((run) => !/^\d+$/.test(run) && !isOrdinaryWord(run));
}

/** Whether `name` is a secret word's plural (`total_tokens`, `keys`): what it holds, it counts. */
const plural = (name: string) => /[a-z]s$/i.test(name) && isSecretKey(name.slice(0, -1));

/**
 * Whether a JSON `value` under `name` is data although the name looks secret: a number under a
 * secret word's plural counts them (`total_tokens: 41923`), and under a lookup's "key" word only
 * (never `api_key`) a number, or text not shaped like an issued key, is the API's own item
 * (`key: "PROJ-123"`, `key: "/config/db"`, `keys: ["button.save"]`). A random run under `key`
 * (`sk_test_4eC3…`, a UUID) stays a credential.
 *
 * @example
 * ```ts
 * import { isJsonKeyData } from "./key_data.ts";
 * if (!isJsonKeyData("key", "PROJ-123") || !isJsonKeyData("total_tokens", 41923)) throw new Error();
 * if (!isJsonKeyData("keys", ["a/b", "c/d"])) throw new Error();
 * if (isJsonKeyData("key", "sk_test_4eC39HqLyjWDarjtT1zdp7dc") || isJsonKeyData("api_key", "x1")) {
 *   throw new Error();
 * }
 * if (isJsonKeyData("otp", 482913)) throw new Error();
 * ```
 */
export function isJsonKeyData(name: string, value: unknown): boolean {
  const items = Array.isArray(value) ? value : [value];
  if (items.length === 0) return false;
  if (items.every((v) => typeof v === "number") && plural(name)) return true;
  if (!keyOnly(name)) return false;
  return items.every((v) => typeof v === "number" || typeof v === "string" && !keyShaped(v));
}

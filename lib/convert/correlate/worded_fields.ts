/**
 * Words under a credential-named key are the API's text, not a credential.
 * A settings page saves its i18n strings (`"login.password": "Password"`), a
 * display mode sits under `token` (`"token": "display"`), a label under
 * `api_key` (`"API key"`): asked for by the key's name, each was a variable
 * to set before the run, so the flow did not run as printed. A value is a
 * secret by what it is and where it is sent. A token or session a server
 * issues is random by construction, so words under such a key are text (a
 * key named `key` keeps its own rule, lookupKey in rewrite_value.ts: docs
 * type words into `api_key=key`, and a bare `key` alone is asked). A
 * password is typed and may be a word (`admin`), so under a password (or
 * secret, passphrase, PIN) key only a label is text: a capitalised word
 * or a phrase (`Password`, `Your password`). Never in a credential place: a
 * login's body, or a body sending an account's name or address beside it (a
 * sign-up), where a word is the password the user chose.
 *
 * @module
 */

/** A key's last word naming what a user types, not what a server issues. */
const TYPED = /^(pass|passwd|password|pwd|passphrase|passcode|pin|secret)s?$/i;
/** A key's last word naming an account (`username`, `email`, `login`), whose value is the account. */
const ACCOUNT_KEY = /^(user|username|login|email|mail|handle|account|name)$/i;
const EMAIL = /^[^@\s]+@[^@\s]+\.[a-z]{2,}$/i;
/** A word as prose writes it: lower case, Capitalised or UPPER case, letters only. */
const WORD = /^(?:[a-z]+|[A-Z][a-z]+|[A-Z]+)$/;

/**
 * A key's words: `login.password` → `login`, `password`; `apiKeyLabel` → `api`, `Key`, `Label`;
 * brackets part words too (`index[Key_name]`).
 *
 * @example
 * ```ts
 * import { keyWords } from "./worded_fields.ts";
 * if (keyWords("index[Key_name]").at(-1) !== "name") throw new Error();
 * ```
 */
export function keyWords(key: string): string[] {
  return key.split(/[_.\s[\]-]+|(?<=[a-z0-9])(?=[A-Z])/).filter((w) => w !== "");
}

/**
 * Whether a credential-named field's value is text the API shows, kept as
 * written: words (see the module) outside a credential place. `place` says
 * whether the body is one (a login, or an account's name beside the value).
 *
 * @example
 * ```ts
 * import { isWordedText } from "./worded_fields.ts";
 * if (!isWordedText("token", "display", false) || !isWordedText("login.password", "Password", false)) throw new Error();
 * if (isWordedText("password", "admin", false) || isWordedText("password", "Password", true)) throw new Error();
 * if (isWordedText("token", "tok-9f8e7d6c", false) || isWordedText("api_key", "key", false)) throw new Error();
 * ```
 */
export function isWordedText(key: string, value: string, place: boolean): boolean {
  if (place || value.length > 48) return false;
  const words = value.split(" ");
  if (words.length > 5 || !words.every((w) => WORD.test(w))) return false;
  const last = keyWords(key).at(-1) ?? "";
  if (/^keys?$/i.test(last)) return false;
  if (!TYPED.test(last)) return true;
  // A typed credential may be a word: only a label (capitalised, or a phrase) is text.
  return words.length > 1 || /^[A-Z]/.test(value);
}

/**
 * Whether a body's fields send an account beside a credential: an e-mail
 * address, or a field whose key's last word names the account, holding a
 * value that is not that word's own label (`"login.username": "Username"`).
 *
 * @example
 * ```ts
 * import { sendsAccount } from "./worded_fields.ts";
 * if (!sendsAccount([["username", "ann"], ["password", "admin"]])) throw new Error();
 * if (sendsAccount([["login.username", "Username"], ["login.password", "Password"]])) throw new Error();
 * ```
 */
export function sendsAccount(fields: readonly (readonly [string, unknown])[]): boolean {
  return fields.some(([k, v]) => {
    if (typeof v !== "string" || v === "") return false;
    if (EMAIL.test(v)) return true;
    const last = keyWords(k).at(-1) ?? "";
    return ACCOUNT_KEY.test(last) && v.replace(/\s+/g, "").toLowerCase() !== last.toLowerCase();
  });
}

/**
 * Whether a request logs in, by what it sends and what it was answered,
 * never by its path: Django's admin serves a group's and a user's forms
 * under `/admin/auth/…`, and a path rule took each for a login (`login_2`
 * … `login_5`). A login sends a password the user typed: in an input the
 * pages declare `type="password"` (password_fields.ts), or in a field whose
 * name says password (`password`, `passwd`, `user_pass`) holding a value no
 * recorded answer or page produced; and, by the name alone, its answer
 * begins a session: it sets a cookie (or another value of one sent), or
 * sends the browser on (AdminJS keeps the cookie it set before the login
 * and redirects), or was not recorded. A search sending a `password`
 * answered in place logs no one in. Once someone is signed in, only a new
 * cookie counts: Signal K's form giving a user a password keeps the session.
 *
 * @module
 */
import type { HarRecord } from "../har_model.ts";
import { parseBody, valueKey } from "../json.ts";
import { sendsPassword } from "./password_fields.ts";
import type { Correlator } from "./state.ts";

/** The last word of a password's field name (`password1`, `user_pass`, `newPwd`). */
const PASSWORD_WORD = /^(?:pass|password|passwd|pwd|passphrase|passcode)\d*$/i;

/**
 * Whether a field's name says a password is typed into it: its last word,
 * so a setting about one (`password_change: on`, `password_expiry`) is none.
 */
function passwordNamed(key: string): boolean {
  const words = key.split(/[_.\s[\]-]+|(?<=[a-z0-9])(?=[A-Z])/).filter((w) => w !== "");
  return PASSWORD_WORD.test(words.at(-1) ?? "");
}

/** Whether `r`'s answer sets a cookie, or another value of one it sent. */
function setsSession(r: HarRecord): boolean {
  const sent = new Map((r.cookies ?? []).map((k) => [k.name, k.value]));
  return (r.setCookies ?? []).some((k) => k.value !== "" && sent.get(k.name) !== k.value);
}

/** The top-level fields of a urlencoded or JSON object body. */
function bodyFields(r: HarRecord): [string, unknown][] {
  if (!r.bodyText) return [];
  try {
    const json = parseBody(r.bodyText);
    return json !== null && typeof json === "object" && !Array.isArray(json)
      ? Object.entries(json)
      : [];
  } catch {
    return [...new URLSearchParams(r.bodyText)];
  }
}

/**
 * Whether `r` logs in: it sends a password in an input the pages declare a
 * password's, or in a field named one with a value the user typed, and its
 * answer begins a session (see the module's words).
 *
 * @example
 * ```ts
 * import { logsIn } from "./login_evidence.ts";
 * import { emptyCorrelator } from "./state.ts";
 * const c = emptyCorrelator("a", true);
 * const post = (bodyText: string) => ({ method: "POST", headers: [], bodyText });
 * // deno-lint-ignore no-explicit-any
 * if (!logsIn(c, post('{"identifier":"ann","password":"s3cret"}') as any)) throw new Error();
 * // deno-lint-ignore no-explicit-any
 * if (logsIn(c, post("name=Harbour+masters&_save=Save") as any)) throw new Error();
 * ```
 */
export function logsIn(c: Correlator, r: HarRecord): boolean {
  if (sendsPassword(c.passwordFields, r)) return true;
  if (!bodyFields(r).some(([k, v]) => typeof v === "string" && typed(c, k, v))) return false;
  if (setsSession(r)) return true;
  // Signed in already: a password whose answer sets no cookie is a form's (a user's new one).
  if (c.steps.some((s) => s.noun === "login")) return false;
  return r.status === undefined || (r.status >= 300 && r.status < 400);
}

/** Whether `value` in the field `key` is a password the user typed, not one a page offered. */
function typed(c: Correlator, key: string, value: string): boolean {
  return value !== "" && passwordNamed(key) && !c.responseSeen.has(valueKey(value)) &&
    !(c.choiceFields.get(key)?.has(value) ?? false) && !c.textFields.has(key);
}

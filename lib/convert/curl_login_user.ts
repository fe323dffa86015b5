/**
 * A login's user name that the docs wrote as a placeholder for the reader's
 * own. A database's JWT page logs in with `"username": "username",
 * "password": "password"`: the password was asked for, but the word
 * `username` was sent as written, so the login was refused for every reader
 * whose account has another name, and every command after it with the token
 * it hands out. The evidence is the body itself: a field naming a user
 * (`username`, `user`, `login`, `email`) sent beside a password, whose value
 * names what goes there rather than anyone (the field's own name, `username`,
 * `email`, `<username>`, `YOUR_USERNAME`, `your-email`). Such a value is a
 * variable to set (`LOGIN_USERNAME`, `LOGIN_EMAIL`), not a secret: it is
 * shown in reports. The name of an account the commands create (a sign-up,
 * whose path names accounts or whose pasted answer is a 201) is left to the
 * accounts rule (`curl_accounts.ts`), which makes it the run's own.
 *
 * @module
 */
import type { HarRecord } from "./har_model.ts";
import { bodyFields, isFormBody, PASSWORD_KEY } from "./curl_body_fields.ts";
import { envMarker, type EnvNames } from "./curl_shell.ts";

const NAME_KEY = /^(user|user_?name|login|e-?mail(_?address)?)$/i;
/**
 * Words that name what goes in a user-name field, not anyone: `username`, `email`. Not `user` or
 * `login`, which are names too (`-u user:password` signs in as the account `user`), unless the
 * field itself is named so (`"user": "user"`).
 */
const FIELD_WORDS = /^(username|loginname|email|emailaddress|useremail)$/;
/** A placeholder in the docs' marks or capitals: `<username>`, `YOUR_USERNAME`, `your-email`. */
const MARKED =
  /^(?:<[^<>]+>|\{\{[^{}]+\}\}|[Yy]our[_-][\w-]+|(?=[A-Z0-9_]*(?:USER|NAME|LOGIN|EMAIL))[A-Z][A-Z0-9_]*)$/;
/** A path whose last segment names where accounts are made (as `curl_accounts.ts` reads it). */
const ACCOUNTS_SEGMENT =
  /^(create|new)?(users?|accounts?|members?|people|customers?|registers?|registrations?|signups?)$/;

const folded = (text: string) => text.toLowerCase().replace(/[-_. ]/g, "");

/**
 * Whether `value`, sent in the user-name field `key`, is a placeholder for
 * the reader's own name: the field's own name, a word naming such a field,
 * or a value in the docs' placeholder marks.
 *
 * @example
 * ```ts
 * import { isPlaceholderUser } from "./curl_login_user.ts";
 * if (!isPlaceholderUser("username", "username") || !isPlaceholderUser("email", "<email>")) throw new Error();
 * if (isPlaceholderUser("username", "admin") || isPlaceholderUser("username", "alice")) throw new Error();
 * ```
 */
export function isPlaceholderUser(key: string, value: string): boolean {
  const word = folded(value);
  return word === folded(key) || FIELD_WORDS.test(word) || MARKED.test(value);
}

/** A record as this rule reads it (a curl command's: its pasted answer's status, if any). */
interface LoginRecord {
  record: HarRecord;
}

/**
 * Replaces, in each login's body, a placeholder user name by the marker of
 * its variable (`LOGIN_USERNAME`, or `LOGIN_EMAIL` for an address), so the
 * flow sends the reader's own account; the value is left where a sign-up
 * sends it (and in every later command that sends it again). Returns each
 * variable made, with the value the docs wrote, for the summary to describe.
 *
 * @example
 * ```ts
 * import { placeholderLoginUsers } from "./curl_login_user.ts";
 * const record = {
 *   method: "POST", url: new URL("http://a.test/"), headers: [{ name: "Content-Type", value: "application/json" }],
 *   bodyText: '{"username":"username","password":"password"}',
 * };
 * const env: string[] = [];
 * // deno-lint-ignore no-explicit-any
 * const made = placeholderLoginUsers([{ record } as any], env);
 * if (env.join() !== "LOGIN_USERNAME" || !record.bodyText.includes('"zqzenv0zqz"')) throw new Error(record.bodyText);
 * if (made.get("LOGIN_USERNAME") !== "username") throw new Error();
 * ```
 */
export function placeholderLoginUsers(
  records: readonly LoginRecord[],
  env: EnvNames,
): Map<string, string> {
  const made = new Map<string, string>();
  const signedUp = new Set<string>();
  for (const { record } of records) {
    const pairs = bodyFields(record);
    if (!pairs.some(([k, v]) => PASSWORD_KEY.test(k) && v !== "")) continue;
    const names = pairs.filter(([k, v]) => NAME_KEY.test(k) && isPlaceholderUser(k, v));
    const creates = record.status === 201 || createsAccounts(record.url);
    for (const [key, value] of names) {
      if (creates) signedUp.add(value);
      if (creates || signedUp.has(value)) continue;
      const name = /mail/i.test(key) ? "LOGIN_EMAIL" : "LOGIN_USERNAME";
      if (!made.has(name)) made.set(name, value);
      replaceField(record, key, value, envMarker(env, name));
    }
  }
  return made;
}

/** The body's pair `key`: `value` with `value` replaced by `to`, in its own spelling. */
function replaceField(record: HarRecord, key: string, value: string, to: string): void {
  const text = record.bodyText ?? "";
  if (isFormBody(record)) {
    record.bodyText = text.split("&").map((pair) => {
      const [k, v = ""] = pair.split("=");
      return decode(k) === key && decode(v) === value ? `${k}=${to}` : pair;
    }).join("&");
    return;
  }
  const quoted = (s: string) => JSON.stringify(s).replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const pair = new RegExp(`(${quoted(key)}\\s*:\\s*)${quoted(value)}`, "g");
  record.bodyText = text.replace(pair, (_m, before: string) => `${before}"${to}"`);
}

/** Whether a URL's last path segment names a collection of accounts or a sign-up. */
function createsAccounts(url: URL): boolean {
  const last = url.pathname.split("/").filter((s) => s !== "").at(-1) ?? "";
  return ACCOUNTS_SEGMENT.test(
    decode(last).replace(/\.\w+$/, "").replace(/[-_.]/g, "").toLowerCase(),
  );
}

function decode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, " "));
  } catch {
    return text;
  }
}

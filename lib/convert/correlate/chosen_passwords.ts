/**
 * Passwords the journey chooses for what it makes: a form that adds an
 * account asks for its password twice (Django's admin posts `password1` and
 * `password2`), and the value is a credential by the page's word, but
 * nobody knows it before the run: the run makes it up. The evidence: one
 * request sends the same value in two password fields (a name that says so,
 * or an input the pages declare `type="password"`), or in one such input while the
 * journey is signed in and the answer keeps the session (a form that adds
 * an account, not a login, which sets or rotates it), or in one password field of
 * a request carrying a token or cookie a sign-in answered, when a later
 * sign-in sends it beside a name that request sent (a page whose inputs a
 * script built, its session a Bearer token, as CNCjs's), and no earlier request
 * sends it (a login before it would make it a password the user must know,
 * asked once), or by a visitor no sign-in preceded (a sign-up answered by the
 * login page, one password field), when a later sign-in to another address
 * sends it beside a name the sign-up sent; a request that sends it in two password
 * fields again is the same form posted once more (Zabbix's user form reloads
 * itself when a role is picked), not a login. A value one request sends under
 * two names of its own, wherever they sit (LDAP Account Manager's dialog posts
 * `password1` and `password2` inside a multipart part's JSON, names no page
 * declared), is typed twice when that request or a later one sends it as a
 * password. Such a value becomes a var of fresh random
 * digits, sent wherever the recording sent the value, never written nor
 * asked: where the journey then logs in as the account it made (or changes
 * that password), it sends the run's own too (made_accounts.ts makes the
 * account's name run-unique). A new password sent once in a plain text box
 * (ejabberd's web admin declares its "Change Password" box `type="text"`) is
 * the run's too when the request's address names an account the journey made
 * with a password the run chose (made_account_pages.ts): setting a password
 * of an account only this run has.
 *
 * @module
 */
import { isSecretName } from "../../secrets/mod.ts";
import type { HarRecord } from "../har_model.ts";
import type { Correlator } from "./state.ts";
import { bodyFields } from "./body_fields.ts";
import { userAndPassword } from "./login_copies.ts";
import { prefilledBefore } from "./prefilled_passwords.ts";
import { carriesCredentialOf, handsOutCredential } from "./sign_in_credentials.ts";
import { madeAccountNames, namesMadeAccount } from "./made_account_pages.ts";

/** The passwords of the Basic credentials `r`'s `Authorization` header sends. */
function basicPasswords(r: HarRecord): string[] {
  // Records made by hand (unit tests) may hold no headers at all.
  return (r.headers ?? []).filter((h) => h.name.toLowerCase() === "authorization")
    .map((h) => /^basic\s+(\S+)$/i.exec(h.value.trim())?.[1] ?? "")
    .flatMap((credential) => userAndPassword(credential)?.[1] ?? []);
}

/** The password fields' values a request's form or JSON object body sends, by field. */
function passwordValues(r: HarRecord, typed: ReadonlySet<string>): [string, string][] {
  return bodyFields(r).filter(([k]) => typed.has(k) || isSecretName(k));
}

/**
 * Whether `records[k]` sent a password other than `value` that no answer
 * before it had handed out: a sign-in. A CSRF token posted beside a login
 * button (Sympa's home page hands it out, then a post of it answers the
 * sign-in form) is a field whose name says "token", but the server's value,
 * no one's password: it signed no one in.
 */
function signedInWith(
  records: readonly HarRecord[],
  k: number,
  value: string,
  typed: ReadonlySet<string>,
): boolean {
  return passwordValues(records[k], typed).some(([, v]) =>
    v !== value && !records.slice(0, k).some((o) => o.responseText?.includes(v))
  );
}

/**
 * Whether `records[i]` sends `value` once to make an account while signed
 * in as someone else, whatever its fields are called and however the page
 * built its inputs: it carries a credential (a token, a header of the app's
 * own, a cookie) an earlier sign-in with another password answered, its own
 * answer hands out none (a sign-in's would), no answer before it held the
 * value (a CSRF or session token the server handed out is no one's choice),
 * and a later sign-in (its answer hands out a credential) sends `value`
 * beside a name this one sent: the account it made, signing in.
 */
function madeThenSignedIn(
  records: readonly HarRecord[],
  i: number,
  value: string,
  typed: ReadonlySet<string>,
): boolean {
  const r = records[i];
  if (records.slice(0, i).some((o) => o.responseText?.includes(value))) return false;
  const signIns = records.slice(0, i).filter((o, k) =>
    signedInWith(records, k, value, typed) || basicPasswords(o).some((v) => v !== value)
  );
  // A visitor signing up (no sign-in before, none answered) is told apart from a failed login
  // tried again by its address: the later sign-in posts elsewhere.
  const visitor = signIns.length === 0 &&
    !records.slice(0, i).some((o) => basicPasswords(o).length);
  if (!(carriesCredentialOf(r, signIns) || visitor) || handsOutCredential(records, i)) return false;
  const names = new Set(bodyFields(r).map(([, v]) => v).filter((v) => v !== value));
  const signsIn = (o: HarRecord, k: number) =>
    passwordValues(o, typed).some(([, v]) => v === value) &&
    bodyFields(o).some(([, v]) => names.has(v)) && handsOutCredential(records, i + 1 + k);
  if (!visitor) return records.slice(i + 1).some(signsIn);
  // A visitor's sign-up is followed by its sign-in: the next request sending the value is it (a
  // form posting one value many times is read once per post, not once per pair).
  const k = records.slice(i + 1).findIndex((o) =>
    passwordValues(o, typed).some(([, v]) => v === value)
  );
  return k >= 0 && records[i + 1 + k].url.pathname !== r.url.pathname &&
    signsIn(records[i + 1 + k], k);
}

/**
 * Whether `records[i]` sends `value` once, in a JSON body, to make a row while signed in as
 * someone else, when no page declared its inputs (a single-page app's "Add user" drawer, as
 * NocoBase's `users:create`): it carries a credential an earlier sign-in with another password
 * answered, its own answer hands out none and is a 2xx JSON row that echoes another value it
 * sent (the account's name) and holds an id-named number or text it did not send (the row made),
 * the field's name says password (a CSRF token beside a create is the server's), and no answer
 * before it held the value, in its body or a cookie. A re-authentication or a password change sends what
 * a login sent before (`chosenPasswords` keeps those asked); a sign-in answers a credential.
 */
function addedRowSignedIn(
  records: readonly HarRecord[],
  i: number,
  value: string,
  typed: ReadonlySet<string>,
): boolean {
  const r = records[i];
  if (!r.hasJson || r.status === undefined || r.status < 200 || r.status > 299) return false;
  if (!/json/i.test(r.bodyMime ?? "")) return false;
  // A password by its field's word: a CSRF token posted beside a create is the server's value.
  if (!bodyFields(r).some(([k, v]) => v === value && /pass|pwd/i.test(k))) return false;
  const before = records.slice(0, i);
  if (before.some((o) => o.responseText?.includes(value) || handedInCookie(o, value))) return false;
  const signIns = before.filter((_, k) => signedInWith(records, k, value, typed));
  if (!carriesCredentialOf(r, signIns) || handsOutCredential(records, i)) return false;
  const answer = r.responseText ?? "";
  const sent = bodyFields(r).map(([, v]) => v).filter((v) => v !== value && v.length >= 3);
  return !answer.includes(value) && sent.some((v) => answer.includes(JSON.stringify(v))) &&
    madeId(r.json, new Set(bodyFields(r).map(([, v]) => v)));
}

/** Whether `o`'s answer set a cookie holding `value`. */
function handedInCookie(o: HarRecord, value: string): boolean {
  return (o.setCookies ?? []).some((c) => c.value.includes(value));
}

/** Whether a JSON answer holds, at its top or one object down, an id-named value not sent. */
function madeId(json: unknown, sent: ReadonlySet<string>): boolean {
  const rows = isObject(json) ? [json, ...Object.values(json).filter(isObject)] : [];
  return rows.some((row) =>
    Object.entries(row).some(([k, v]) =>
      /^(?:id|uuid|_id)$/i.test(k) && (typeof v === "number" || typeof v === "string") &&
      !sent.has(String(v))
    )
  );
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Whether `records[i]` sends `value` as one password field while someone is
 * already signed in: it authenticates with Basic credentials of another
 * password; or an earlier request sent another password (not one an answer
 * handed out, see `signedInWith`), this one
 * carries the session cookies (or earlier answers set them), and its answer keeps them (sets none, or
 * each to the value sent). A login rotates or sets the session; a form that
 * adds an account with its password (Icinga Web 2's user form asks it once)
 * leaves the signed-in user's session as it was.
 */
function signedInAdd(
  records: readonly HarRecord[],
  i: number,
  value: string,
  typed: ReadonlySet<string>,
): boolean {
  const r = records[i];
  // Signed in by Basic credentials as someone else: an admin adding an account (RabbitMQ's).
  if (basicPasswords(r).some((p) => p !== value)) return true;
  // A recording without request cookies (chrome-har's) sends what earlier answers set.
  const held = r.cookies.length > 0 ? r.cookies : records.slice(0, i).flatMap((o) => o.setCookies);
  if (held.length === 0) return false;
  const sent = new Map(held.map((c) => [c.name, c.value]));
  if (r.setCookies.some((c) => sent.get(c.name) !== c.value)) return false;
  return records.slice(0, i).some((_, k) => signedInWith(records, k, value, typed));
}

/**
 * The values `records[i]` sends in two fields of its own names, wherever they
 * sit (a dialog's new password and its repeat inside a JSON document, as LDAP
 * Account Manager's `password1` and `password2`), that this or a later request
 * sends as a password (an input a page declared `type="password"`, Basic
 * credentials) and no earlier answer held: a password typed twice, whatever
 * the script called its members. Each is listed twice, as two password fields' are.
 * A field a page declared a visible text box (`plain`) is no second typing: a
 * factory account's name that equals its password (ZoneMinder's `admin`/`admin`)
 * is a name and a password, not a confirmation.
 */
function typedTwice(
  records: readonly HarRecord[],
  i: number,
  typed: ReadonlySet<string>,
  plain: ReadonlySet<string>,
): string[] {
  const fields = bodyFields(records[i]).filter(([k]) => typed.has(k) || !plain.has(k));
  const names = new Map<string, Set<string>>();
  for (const [k, v] of fields) names.set(v, (names.get(v) ?? new Set()).add(k));
  const later = records.slice(i);
  return [...names].filter(([v, keys]) =>
    keys.size >= 2 &&
    later.some((o) =>
      // A page's `type="password"` input, not a name: `index[Key_name]=PRIMARY` twice is no password.
      bodyFields(o).some(([k, p]) => p === v && typed.has(k)) || basicPasswords(o).includes(v)
    ) &&
    !records.slice(0, i).some((o) => o.responseText?.includes(v))
  ).flatMap(([v]) => [v, v]);
}

/**
 * Whether `r` sends `value` in two password fields: the same form posted again (one that reloads
 * itself when a choice is made, then saves), not a login with it.
 */
function confirms(r: HarRecord, value: string, typed: ReadonlySet<string>): boolean {
  return passwordValues(r, typed).filter(([, v]) => v === value).length >= 2;
}

/**
 * The values of `records` that one request sends in two password fields (or
 * one, when someone is already signed in and the session stays) and
 * no earlier request sends (see the module). `plain` names the pages' plain text boxes: one
 * whose name says password counts as a password box on the page of an account the journey made.
 *
 * @example
 * ```ts
 * import { chosenPasswords } from "./chosen_passwords.ts";
 * const add = { bodyMime: "application/x-www-form-urlencoded", url: new URL("http://a.test/users/add"),
 *   bodyText: "username=tide&password1=s3cret-typed&password2=s3cret-typed", headers: [], cookies: [], setCookies: [] };
 * const login = { ...add, url: new URL("http://a.test/login"), bodyText: "username=tide&password=s3cret-typed" };
 * // The pages declared both inputs `type="password"`.
 * const typed = new Set(["password1", "password2"]);
 * // deno-lint-ignore no-explicit-any
 * if (!chosenPasswords([add] as any, typed).has("s3cret-typed")) throw new Error();
 * // A login with it before the form: a password the user knows. After: the account made, logging in.
 * // deno-lint-ignore no-explicit-any
 * if (chosenPasswords([login, add] as any, typed).size !== 0) throw new Error();
 * // deno-lint-ignore no-explicit-any
 * if (!chosenPasswords([add, login] as any, typed).has("s3cret-typed")) throw new Error();
 * ```
 */
export function chosenPasswords(
  records: readonly HarRecord[],
  typed: ReadonlySet<string>,
  plain: ReadonlySet<string> = new Set(),
): Set<string> {
  const chosen = new Set<string>();
  const made = new Set<string>();
  records.forEach((r, i) => {
    const values = [
      ...passwordValues(r, typed).map(([, v]) => v),
      ...typedTwice(records, i, typed, plain),
    ];
    const typedValues = oneBoxValues(r, typed, plain, made);
    for (const value of new Set(values)) {
      // A box the page filled (a placeholder meaning "unchanged") sent back as is: the page's.
      if (bodyFields(r).some(([k, v]) => v === value && prefilledBefore(records, i, k, value))) {
        continue;
      }
      const once = (typedValues.includes(value) && signedInAdd(records, i, value, typed)) ||
        madeThenSignedIn(records, i, value, typed) || addedRowSignedIn(records, i, value, typed);
      if (values.filter((v) => v === value).length < 2 && !once) continue;
      // Sent after the form chose it is the account it made logging in: the run's own there too.
      const before = records.slice(0, i).some((o) =>
        !confirms(o, value, typed) &&
        (o.bodyText?.includes(value) || o.url.href.includes(value) ||
          passwordValues(o, typed).some(([, v]) => v === value) ||
          basicPasswords(o).includes(value))
      );
      if (!before) chosen.add(value);
    }
    for (const name of madeAccountNames(r, chosen)) made.add(name);
  });
  return chosen;
}

/**
 * The values `r` sends in one box whose name says password that a page declared: a password
 * input, or a plain text box (`plain`) on the page of an account the journey made (`made`,
 * made_account_pages.ts). One field is enough only then, never a token's name alone.
 */
function oneBoxValues(
  r: HarRecord,
  typed: ReadonlySet<string>,
  plain: ReadonlySet<string>,
  made: ReadonlySet<string>,
): string[] {
  return passwordValues(r, typed)
    .filter(([k]) => typed.has(k) || (plain.has(k) && namesMadeAccount(r, made)))
    .map(([, v]) => v);
}

/**
 * Makes each chosen password of `records` a var of the run's own (see the module).
 *
 * @example
 * ```ts
 * import { freshChosenPasswords } from "./chosen_passwords.ts";
 * import { newCorrelator } from "./pipeline.ts";
 * const c = newCorrelator("a");
 * c.passwordFields.add("password1").add("password2"); // inputs the pages declared type="password"
 * const add = { bodyMime: "application/x-www-form-urlencoded", url: new URL("http://a.test/users/add"),
 *   bodyText: "password1=s3cret-typed&password2=s3cret-typed", headers: [], cookies: [], setCookies: [] };
 * // deno-lint-ignore no-explicit-any
 * freshChosenPasswords(c, [add] as any);
 * if (c.generated.get("s3cret-typed") !== "${vars.chosen_password}") throw new Error();
 * ```
 */
export function freshChosenPasswords(c: Correlator, records: readonly HarRecord[]): void {
  for (const value of chosenPasswords(records, c.passwordFields, c.textFields)) {
    const name = c.varNames.take("chosen_password");
    // Letters of both cases, a sign and digits: what a server's password rules ask for.
    c.vars.push([name, "${RANDOM.PASSWORD}"]);
    c.generated.set(value, c.sp.varRef(name));
    c.secrets.add(value);
  }
}

/**
 * Whether `r` sends passwords and every one is a password the run chooses
 * ({@linkcode freshChosenPasswords} made it a var): a form that adds an
 * account (ZNC's `adduser`, Django's `user/add/`), not a login, whatever its
 * password fields are called. The inputs the pages declared `type="password"` are read when it
 * sends any (a CSRF token beside them is no password).
 *
 * @example
 * ```ts
 * import { addsAccount, freshChosenPasswords } from "./chosen_passwords.ts";
 * import { newCorrelator } from "./pipeline.ts";
 * const c = newCorrelator("a");
 * c.passwordFields.add("password").add("password2").add("pass");
 * const form = { bodyMime: "application/x-www-form-urlencoded", headers: [], cookies: [], setCookies: [] };
 * const add = { ...form, url: new URL("http://a.test/adduser"), bodyText: "password=Quay-7&password2=Quay-7" };
 * const login = { ...form, url: new URL("http://a.test/login"), bodyText: "user=keeper&pass=brass-77" };
 * // deno-lint-ignore no-explicit-any
 * freshChosenPasswords(c, [login, add] as any);
 * // deno-lint-ignore no-explicit-any
 * if (!addsAccount(c, add as any) || addsAccount(c, login as any)) throw new Error();
 * ```
 */
export function addsAccount(c: Correlator, r: HarRecord): boolean {
  const chosen = new Set(
    c.vars.filter(([, v]) => v === "${RANDOM.PASSWORD}").map(([name]) => c.sp.varRef(name)),
  );
  const sent = passwordValues(r, c.passwordFields);
  // The inputs a page declared passwords, when it sends any: a CSRF token's name says "token".
  const typed = sent.filter(([k]) => c.passwordFields.has(k));
  const values = (typed.length > 0 ? typed : sent).map(([, v]) => v);
  return values.length > 0 && values.every((v) => chosen.has(c.generated.get(v) ?? ""));
}

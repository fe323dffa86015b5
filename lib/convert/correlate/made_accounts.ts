/**
 * Accounts the journey makes and then logs in as: an administrator adds a
 * user (a name, a password the run chooses, chosen_passwords.ts), logs out
 * and logs in as that user. The login sends the chosen password (the run's
 * own there too) and the account's name; sent as recorded, a second run on
 * the same instance is refused when it adds the account again (the name is
 * taken). The evidence, whatever the fields are called: a later request
 * sends a chosen password beside a value the request that chose it sent
 * too, which no answer held before (the server did not offer it, as it does
 * a CSRF token). Such a name becomes a var, the recorded name with the run
 * id (`tide.s-${RUN_ID}`; `tide${RANDOM.HEX_8}` for letters and digits
 * alone; an e-mail address keeps its domain, `ann-${RUN_ID}@example.com`),
 * sent and checked wherever the recording had it. The sign-up's other names
 * for that account (its e-mail address, a value holding the name) get the
 * run id too: a second account with the same address is refused as well.
 * A sign-up that signs the new user in (gitit's `/_register`) has no later
 * login: there the evidence is in the sign-up itself. It sends the chosen
 * password twice (the password and its confirmation) beside a typed name no
 * answer offered (in a form, one sent by an input its page shows as text),
 * and its answer hands out a session (a cookie set anew, a token sent back
 * later) or leads to a page that shows the name. A login
 * sends a password once and the user knew it before: never a chosen one.
 *
 * @module
 */
import type { HarRecord } from "../har_model.ts";
import { ownName, sentFields } from "./client_names.ts";
import { handsOutCredential } from "./sign_in_credentials.ts";
import type { Correlator } from "./state.ts";

/** A user name or e-mail address: no spaces, short. */
const NAME = /^[\w.@+~-]{1,80}$/;

/** A value a checkbox or a switch sends, not a name someone typed. */
const SWITCH = /^(on|off|yes|no|true|false)$/i;

/**
 * Whether `records[i]` signs up and signs in (see the module): its answer
 * hands out a session, or the page it leads to shows `name` as an element's text.
 */
function signsIn(records: readonly HarRecord[], i: number, name: string): boolean {
  if (handsOutCredential(records, i)) return true;
  const next = records[i + 1];
  const status = records[i].status ?? 0;
  return status >= 300 && status < 400 && Boolean(next?.responseText?.includes(`>${name}<`));
}

/**
 * The typed names `records[made]` sends when it is a sign-up that signs in:
 * `password` in two fields, beside names no earlier answer offered.
 */
function signedUpNames(
  c: Correlator,
  records: readonly HarRecord[],
  made: number,
  password: string,
): string[] {
  const fields = sentFields(records[made]);
  if (fields.filter(([, v]) => v === password).length < 2) return [];
  // A form's typed name is in an input its page shows as text: a submit button's
  // `register=Register` or a hidden `destination` is the page's own.
  const form = records[made].bodyMime?.endsWith("form-urlencoded") ||
    records[made].bodyMime === "multipart/form-data";
  const typed = form && c.textFields.size > 0
    ? fields.filter(([k]) => c.textFields.has(k))
    : fields;
  return typed.map(([, v]) => v).filter((v) =>
    v !== password && NAME.test(v) && /[A-Za-z]/.test(v) && v.length >= 3 && !SWITCH.test(v) &&
    !c.generated.has(v) && !c.secrets.has(v) && !offeredBefore(records, made, v) &&
    signsIn(records, made, v)
  );
}

/** The values of the chosen passwords' vars (`${RANDOM.PASSWORD}`), by the recorded value. */
function chosenValues(c: Correlator): string[] {
  const chosen = new Set(
    c.vars.filter(([, v]) => v === "${RANDOM.PASSWORD}").map(([name]) => c.sp.varRef(name)),
  );
  return [...c.generated].filter(([, ref]) => chosen.has(ref)).map(([value]) => value);
}

/** Whether an answer before `i` held `value` as a whole string or an element's text. */
function offeredBefore(records: readonly HarRecord[], i: number, value: string): boolean {
  return records.slice(0, i).some((r) =>
    r.responseText?.includes(`"${value}"`) || r.responseText?.includes(`>${value}<`)
  );
}

/**
 * `name` with the run id; an e-mail address's before its `@`, so it stays an
 * address. A name of letters and digits alone gets 8 hex digits glued on
 * instead (`deckhand${RANDOM.HEX_8}`): gitit refuses a user name with any
 * other character ("at least 3 letters or digits"), as many sign-ups do.
 */
function withRunId(name: string): string {
  if (/^[A-Za-z0-9]+$/.test(name)) return `${name}\${RANDOM.HEX_8}`;
  const at = name.lastIndexOf("@");
  return at > 0 ? `${name.slice(0, at)}-\${RUN_ID}${name.slice(at)}` : `${name}-\${RUN_ID}`;
}

/**
 * The names of the accounts `records` make with a chosen password and then
 * log in as (see the module).
 */
function madeAccountNames(c: Correlator, records: readonly HarRecord[]): Set<string> {
  const names = new Set<string>();
  for (const password of chosenValues(c)) {
    const values = records.map((r) => sentFields(r).map(([, v]) => v));
    const made = values.findIndex((sent) => sent.includes(password));
    if (made < 0) continue;
    for (const name of signedUpNames(c, records, made, password)) names.add(name);
    const later = values.slice(made + 1).filter((sent) =>
      sent.filter((v) => v === password).length === 1
    );
    const signedIn: string[] = [];
    for (const value of later.flat()) {
      if (value === password || !values[made].includes(value) || !NAME.test(value)) continue;
      if (c.generated.has(value) || c.secrets.has(value)) continue;
      if (!offeredBefore(records, made, value)) signedIn.push(value);
    }
    for (const name of signedIn) names.add(name);
    for (const name of sameAccount(c, records, made, password, signedIn)) names.add(name);
  }
  return names;
}

/**
 * The other names `records[made]` sent for the account a later sign-in named
 * by `signedIn`: an e-mail address, or a value holding that name or held in
 * it (`deckhand` and `deckhand@example.com`). A sign-up refuses a second
 * account with the same address as it does the same name.
 */
function sameAccount(
  c: Correlator,
  records: readonly HarRecord[],
  made: number,
  password: string,
  signedIn: readonly string[],
): string[] {
  if (signedIn.length === 0) return [];
  return sentFields(records[made]).map(([, v]) => v).filter((v) =>
    v !== password && NAME.test(v) && v.length >= 3 && !signedIn.includes(v) &&
    !c.generated.has(v) && !c.secrets.has(v) && !offeredBefore(records, made, v) &&
    (/^[^@\s]+@[^@\s]+\.\w+$/.test(v) ||
      signedIn.some((n) => n.length >= 3 && (v.includes(n) || n.includes(v))))
  );
}

/**
 * Makes the name of each account the journey makes and logs in as the
 * run's own (see the module). Run after the chosen passwords are known.
 *
 * @example
 * ```ts
 * import { ownMadeAccounts } from "./made_accounts.ts";
 * import { newCorrelator } from "./pipeline.ts";
 * const form = { method: "POST", bodyMime: "application/x-www-form-urlencoded", headers: [], cookies: [], setCookies: [] };
 * const add = { ...form, url: new URL("http://a.test/users/add"), bodyText: "username=tide&password1=Quay-7x&password2=Quay-7x" };
 * const login = { ...form, url: new URL("http://a.test/login"), bodyText: "username=tide&password=Quay-7x" };
 * const c = newCorrelator("a");
 * c.vars.push(["chosen_password", "${RANDOM.PASSWORD}"]);
 * c.generated.set("Quay-7x", "${vars.chosen_password}");
 * // deno-lint-ignore no-explicit-any
 * ownMadeAccounts(c, [add, login] as any);
 * if (c.generated.get("tide") !== "${vars.account_name}") throw new Error(JSON.stringify(c.vars));
 * ```
 */
export function ownMadeAccounts(c: Correlator, records: readonly HarRecord[]): void {
  for (const name of madeAccountNames(c, records)) ownName(c, name, "account_name", withRunId);
}

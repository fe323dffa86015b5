/**
 * The account a README's sign-up creates is the run's own. Docs sign a user
 * up (`{"username": "miguel", "password": "python"}`) and then log in with
 * that name; sent as written, a second run on the same instance is refused
 * at the sign-up (the name is taken: 400, 409, a UNIQUE constraint's 500).
 * The evidence, whatever the path or the keys: a POST whose JSON object or
 * form sends a password beside a user name or an e-mail address that no
 * earlier command sent, or a PUT sending a password beside a value its path
 * names (`PUT /_users/org.couchdb.user:jan` `{"name":"jan",…}`: the path is
 * the account's), and either its pasted answer is a 201 or a later
 * command sends that same name with that same password (a login's body, or
 * `-u name:password`). The name becomes a var with the run id
 * (`miguel-${RUN_ID}`; an address keeps its shape, `ann-${RUN_ID}@example.com`),
 * sent wherever the commands send the name (it is a generated value), in a
 * path segment that names it among other words too (`org.couchdb.user:jan`);
 * the summary says so once.
 *
 * @module
 */
import type { Correlator } from "./correlate/mod.ts";
import type { HarRecord } from "./har_model.ts";
import { bodyFields } from "./curl_body_fields.ts";
import { mixRunId } from "./values.ts";

/** A request as the accounts rule reads it: its record and `-u`'s `user:password`. */
export interface AccountRequest {
  record: HarRecord;
  user?: string;
}

const PASSWORD_KEY = /^(pass|passwd|pwd)$|password$/i;
const NAME_KEY = /^(user|user_?name|login|handle|e-?mail(_?address)?)$/i;
const EMAIL = /^[^@\s]+@[^@\s]+\.[a-z]{2,}$/i;
/** A last path segment naming where accounts are made (`/users`, `/auth/sign-up`, `/register.json`). */
const ACCOUNTS_SEGMENT =
  /^(create|new)?(users?|accounts?|members?|people|customers?|registers?|registrations?|signups?)$/;

/** A body field naming the call an RPC request makes. */
const CALL_KEY = /^(operation|op|method|action|command|cmd)$/i;
/** A call creating an account, verb and noun either way round: `add_user`, `user.create`. */
const CREATE_CALL =
  /^(?:(?:add|create|new|register)[_.\-/]?(?:users?|accounts?|members?)|(?:users?|accounts?|members?)[_.\-/]?(?:add|create|new|register))$/;

/**
 * Makes each account a sign-up command creates the run's own (see the
 * module); returns the names it made so.
 *
 * @example
 * ```ts
 * import { ownAccounts } from "./curl_accounts.ts";
 * import { newCorrelator } from "./correlate/mod.ts";
 * const body = '{"username":"miguel","password":"python"}';
 * const r = (path: string) => ({ method: "POST", url: new URL(`http://a.test${path}`), bodyText: body, headers: [] });
 * const c = newCorrelator("a");
 * // deno-lint-ignore no-explicit-any
 * const made = ownAccounts(c, [{ record: r("/api/users") }, { record: r("/api/login") }] as any);
 * if (!made.has("miguel") || c.vars[0][1] !== "miguel-${RUN_ID}") throw new Error(JSON.stringify(c.vars));
 * ```
 */
export function ownAccounts(c: Correlator, requests: readonly AccountRequest[]): Set<string> {
  const made = new Set<string>();
  requests.forEach(({ record }, i) => {
    const put = record.method === "PUT";
    if (record.method !== "POST" && !put) return;
    const pairs = bodyFields(record);
    // An OAuth grant (`grant_type=password`) asks a token of an account that exists: a login.
    if (pairs.some(([k]) => k === "grant_type")) return;
    const password = pairs.find(([k, v]) => PASSWORD_KEY.test(k) && v !== "")?.[1];
    if (password === undefined) return;
    const names = pairs.filter(([k, v]) =>
      (put ? pathWords(record.url).includes(v) : NAME_KEY.test(k) || EMAIL.test(v)) &&
      v !== "" && v !== password && !c.generated.has(v) &&
      !requests.slice(0, i).some((o) => sends(o, v))
    ).map(([, v]) => v);
    // Signing in later proves a sign-up only where the command could create one: a login
    // then the same `-u` is the same existing account sent twice.
    const later = (put || createsAccounts(record.url) || createsByCall(pairs)) &&
      names.some((n) => requests.slice(i + 1).some((o) => sendsBoth(o, n, password)));
    if (names.length === 0 || (record.status !== 201 && !later)) return;
    // Every name of the account is its own: an address is as unique as the user name.
    for (const name of names) {
      const varName = c.varNames.take(EMAIL.test(name) ? "account_email" : "account_name");
      const lit = (t: string) => c.sp.lit(t);
      c.vars.push([varName, mixRunId("email", name, lit) ?? `${lit(name)}-\${RUN_ID}`]);
      c.generated.set(name, c.sp.varRef(varName));
      namingSegments(c, requests, name);
      made.add(name);
    }
  });
  if (made.size > 0) {
    c.notes.push(
      `The account the sign-up creates (${
        [...made].join(", ")
      }) is the run's own: sent with the run id wherever the commands send it, so a second run on the same instance signs up another.`,
    );
  }
  return made;
}

/** Whether a URL's last path segment names a collection of accounts or a sign-up. */
function createsAccounts(url: URL): boolean {
  const last = url.pathname.split("/").filter((s) => s !== "").at(-1) ?? "";
  return ACCOUNTS_SEGMENT.test(
    safeDecode(last).replace(/\.\w+$/, "").replace(/[-_.]/g, "").toLowerCase(),
  );
}

/**
 * Whether an RPC body names a creation of accounts as its call: an operations API's
 * `"operation": "add_user"`, JSON-RPC's `"method": "user.create"`, a form's
 * `action=createAccount`. The verb is the call's, as a path's last segment is a REST one's.
 */
function createsByCall(pairs: [string, string][]): boolean {
  return pairs.some(([k, v]) =>
    CALL_KEY.test(k) && CREATE_CALL.test(v.replace(/([a-z])([A-Z])/g, "$1_$2").toLowerCase())
  );
}

/** A path's words: its segments, and their parts between `:`, `;`, `,` and `=`, decoded. */
function pathWords(url: URL): string[] {
  return url.pathname.split("/").flatMap((s) => {
    const decoded = safeDecode(s);
    return [decoded, ...decoded.split(/[:;,=]/)];
  });
}

/**
 * Each path segment that names the account among other words
 * (`org.couchdb.user:jan`) is generated too, the name in it the account's
 * var: a later read of that account follows its sign-up.
 */
function namingSegments(c: Correlator, requests: readonly AccountRequest[], name: string): void {
  for (const { record } of requests) {
    for (const segment of record.url.pathname.split("/").map(safeDecode)) {
      const parts = segment.split(/([:;,=])/);
      if (segment === name || c.generated.has(segment) || !parts.includes(name)) continue;
      const template = parts.map((p) => p === name ? c.generated.get(name)! : c.sp.lit(p));
      c.generated.set(segment, template.join(""));
    }
  }
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** Whether a request sends `text` anywhere: URL, headers, body or `-u`. */
function sends(r: AccountRequest, text: string): boolean {
  const { url, headers, bodyText } = r.record;
  return decodeURIComponent(url.href).includes(text) || (bodyText ?? "").includes(text) ||
    headers.some((h) => h.value.includes(text)) || (r.user ?? "").includes(text);
}

/** Whether a request sends the account's name and its password: a login with it. */
function sendsBoth(r: AccountRequest, name: string, password: string): boolean {
  if (r.user === `${name}:${password}`) return true;
  const pairs = bodyFields(r.record);
  return pairs.some(([, v]) => v === name) && pairs.some(([, v]) => v === password);
}

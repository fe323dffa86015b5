/**
 * Which POSTs a login's path names (`/auth`, `/login`, `/session`, `/token`:
 * `isAuthPath`) log no one in, by what they send and were answered. The
 * path stays the candidate and evidence can only take the name away: Django
 * serves its admin's forms under `/admin/auth/…` and Jupyter makes a kernel
 * session with `POST /api/sessions`, and each was `login_2` …. A candidate
 * whose answer was recorded is no login when it sends no credential the
 * user typed (a secret-named field or a page's password input holding a
 * value no earlier answer handed out and the run does not choose, or Basic
 * credentials), or when it is sent inside a session an earlier login began
 * and its answer begins none (a form changing a user's password). With no
 * answer recorded (every curl command, a page that left first) there is no
 * evidence and the path's name stands: treating "no answer" as a session
 * begun made every curl sign-up a login. A token the answer hands out that
 * a later request sends (logins.ts) and a JSON-RPC login keep the name.
 *
 * @module
 */
import { isSecretName } from "../../secrets/mod.ts";
import type { HarRecord } from "../har_model.ts";
import { parseBody, walk } from "../json.ts";
import { isAuthPath } from "../names.ts";
import { userAndPassword } from "./login_copies.ts";
import { sendsPassword } from "./password_fields.ts";
import { isRpcLogin } from "./rpc_logins.ts";
import { sendsBareCredential } from "./bare_credential.ts";
import type { Correlator } from "./state.ts";

/**
 * The records of `records` whose path names them a login that the evidence
 * says log no one in (see the module's words). Needs `c.loginRecords`,
 * `c.passwordFields` and the chosen passwords (`c.generated`) found first.
 *
 * @example
 * ```ts
 * import { pathOnlyLogins } from "./login_evidence.ts";
 * import { emptyCorrelator } from "./state.ts";
 * const c = emptyCorrelator("a", true);
 * const post = (path: string, bodyText: string, status?: number) => ({
 *   method: "POST", url: new URL(`http://a.test${path}`), headers: [], cookies: [],
 *   setCookies: [], bodyMime: "application/x-www-form-urlencoded", bodyText, status,
 * });
 * const login = post("/admin/login/", "username=ann&password=s3cret", 302);
 * const add = post("/admin/auth/group/add/", "name=Harbour", 302);
 * const unanswered = post("/admin/auth/group/add/", "name=Harbour");
 * // deno-lint-ignore no-explicit-any
 * const out = pathOnlyLogins(c, [login, add, unanswered] as any);
 * if (out.has(login as any) || !out.has(add as any) || out.has(unanswered as any)) throw new Error();
 * ```
 */
export function pathOnlyLogins(c: Correlator, records: readonly HarRecord[]): Set<HarRecord> {
  const out = new Set<HarRecord>();
  // The cookies the answers of the logins so far set: the session they began.
  const session = new Map<string, string>();
  // The cookies the answers so far set, the latest of each: what the browser holds.
  const jar = new Map<string, string>();
  records.forEach((r, i) => {
    const post = r.method === "POST";
    const sure = c.loginRecords.has(r) || (post && isRpcLogin(r));
    const candidate = post && !sure && isAuthPath(r.url.pathname);
    if (candidate && demoted(c, records, i, jar, session)) out.add(r);
    else if (sure || candidate || (post && sendsPassword(c.passwordFields, r))) {
      for (const k of r.setCookies) if (k.value !== "") session.set(k.name, k.value);
    }
    for (const k of r.setCookies) jar.set(k.name, k.value);
  });
  return out;
}

/** Whether the evidence takes the login's name from the candidate `records[i]`. */
function demoted(
  c: Correlator,
  records: readonly HarRecord[],
  i: number,
  jar: ReadonlyMap<string, string>,
  session: ReadonlyMap<string, string>,
): boolean {
  const r = records[i];
  // No answer recorded (curl, a page that left first): no evidence, the path's name stands.
  if (r.status === undefined) return false;
  return !typesCredential(c, records, i) || insideSession(r, jar, session);
}

/**
 * Whether `records[i]` sends a credential the user typed: Basic credentials,
 * a body that is one bare value (bare_credential.ts), or a secret-named field or a page's password input whose value no earlier
 * answer handed out (a CSRF token, a token being revoked) and the run does
 * not choose afresh (a new user's password, chosen_passwords.ts).
 */
function typesCredential(c: Correlator, records: readonly HarRecord[], i: number): boolean {
  const r = records[i];
  const basic = (r.headers ?? []).some((h) =>
    h.name.toLowerCase() === "authorization" &&
    userAndPassword(/^basic\s+(\S+)$/i.exec(h.value.trim())?.[1] ?? "") !== undefined
  );
  if (basic || sendsBareCredential(c, records, i)) return true;
  return bodyFields(r).some(([key, value]) =>
    value !== "" && (isSecretName(key) || c.passwordFields.has(key)) &&
    !c.generated.has(value) && !handedOut(records, i, value)
  );
}

/** Whether an answer before `records[i]` held `value` (its text or a cookie it set). */
function handedOut(records: readonly HarRecord[], i: number, value: string): boolean {
  // The latest answers first: a token sent on is most often the one just handed out.
  for (let j = i - 1; j >= 0; j--) {
    const o = records[j];
    if (o.responseText?.includes(value) || o.setCookies.some((k) => k.value === value)) return true;
  }
  return false;
}

/**
 * Whether `r` is sent inside the session an earlier login began (a cookie
 * it set, sent back; `jar` what the answers before set) and its answer sets none of that session's
 * cookies anew: signed in already, it acts as that user and logs no one in.
 */
function insideSession(
  r: HarRecord,
  jar: ReadonlyMap<string, string>,
  session: ReadonlyMap<string, string>,
): boolean {
  // A recording without request cookies (chrome-har's) sends what the answers before set.
  const held = r.cookies.length > 0
    ? r.cookies
    : [...jar].map(([name, value]) => ({ name, value }));
  if (!held.some((k) => k.value !== "" && session.get(k.name) === k.value)) return false;
  return !r.setCookies.some((k) => session.has(k.name) && k.value !== session.get(k.name));
}

/** The string values a form or JSON body sends, each with its field's name (nested ones too). */
function bodyFields(r: HarRecord): [string, string][] {
  if (!r.bodyText) return [];
  if (!/json/i.test(r.bodyMime ?? "") && !/^\s*[[{]/.test(r.bodyText)) {
    return [...new URLSearchParams(r.bodyText)];
  }
  const out: [string, string][] = [];
  try {
    walk(parseBody(r.bodyText), (_path, key, leaf) => {
      if (typeof leaf === "string") out.push([key, leaf]);
    });
  } catch {
    // Not JSON after all: no field to read.
  }
  return out;
}

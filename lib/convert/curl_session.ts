/**
 * Where a command's cookie came from. An API's docs print a login, then a
 * call that sends the cookie the login's answer set
 * (`curl --data 'username=…&password=…' …/login`, then
 * `curl …/info --cookie "SID=hBc7…"`): the value is the docs' own, and a
 * real server hands out another at each login. Commands carry no answers,
 * so the evidence is their order: a session cookie (one the conversion would
 * otherwise ask for as `SESSION_COOKIE`) no earlier command sent, sent right
 * after a login to the same origin, was set by that login's answer. A login
 * is a write that sends a credential the user types (`-u`, a secret-named
 * field such as `password`) and carries no session of its own (no cookie,
 * no `Authorization` header). The cookie is recorded as set there, and the
 * stages shared with `convert har` capture it from that answer by its name
 * (`{cookie: SID}`) instead of asking for a value no user has. A cookie
 * after anything else (a read, a note, an authorized call, another origin)
 * is the user's to give, as before.
 *
 * @module
 */
import { isSecretName } from "../secrets/mod.ts";
import type { CurlRecord } from "./curl_request.ts";
import type { HarRecord } from "./har_model.ts";
import { parseBody } from "./json.ts";
import { isCredentialCookie } from "./values.ts";

const READS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Marks on the login right before each session cookie's first sending the
 * cookie as set by its answer (see the module).
 *
 * @example
 * ```ts
 * import { cookiesFromLogins } from "./curl_session.ts";
 * const r = (method: string, url: string, cookies: { name: string; value: string }[], bodyText?: string) => ({
 *   record: { method, url: new URL(url), headers: [], cookies, bodyText, setCookies: [] as { name: string; value: string }[] },
 *   extras: {},
 * });
 * const login = r("POST", "http://a.test/api/login", [], "username=ann&password=typed-pw");
 * const info = r("GET", "http://a.test/api/info", [{ name: "SID", value: "hBc7TxF76ERhvIw0" }]);
 * // deno-lint-ignore no-explicit-any
 * cookiesFromLogins([login, info] as any);
 * if (login.record.setCookies[0]?.value !== "hBc7TxF76ERhvIw0") throw new Error();
 * ```
 */
export function cookiesFromLogins(records: readonly CurlRecord[]): void {
  records.forEach(({ record: r }, i) => {
    const login = records[i - 1];
    if (!login || !logsIn(login, r.url.origin)) return;
    const earlier = records.slice(0, i).map((e) => e.record);
    for (const cookie of r.cookies) {
      if (!isCredentialCookie(cookie.name, cookie.value, true)) continue;
      const sentBefore = earlier.some((e) =>
        e.cookies.some((k) => k.name === cookie.name && k.value === cookie.value)
      );
      const set = login.record.setCookies;
      if (!sentBefore && !set.some((k) => k.name === cookie.name)) set.push({ ...cookie });
    }
  });
}

/** Whether `login` is a write to `origin` that sends a typed credential and carries no session. */
function logsIn({ record: r, extras }: CurlRecord, origin: string): boolean {
  if (r.url.origin !== origin || READS.has(r.method) || r.cookies.length > 0) return false;
  if (r.headers.some((h) => /^(cookie|authorization)$/i.test(h.name))) return false;
  if (extras.auth?.scheme === "basic" || extras.auth?.scheme === "digest") return true;
  const parts = extras.multipart?.filter((p) => p.from === "text").map((p) => p.name) ?? [];
  return [...parts, ...bodyFields(r)].some(isSecretName);
}

/** The names of a urlencoded or JSON body's top-level fields with a non-empty value. */
function bodyFields(r: HarRecord): string[] {
  if (!r.bodyText) return [];
  try {
    const json = parseBody(r.bodyText);
    if (json === null || typeof json !== "object" || Array.isArray(json)) return [];
    return Object.entries(json).filter(([, v]) => v !== "").map(([k]) => k);
  } catch {
    return [...new URLSearchParams(r.bodyText)].filter(([, v]) => v !== "").map(([k]) => k);
  }
}

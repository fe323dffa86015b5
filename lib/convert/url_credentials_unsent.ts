/**
 * A URL's user part the browser never sent. A browser sends a URL's credentials only in answer to
 * a challenge (Fetch's "authentication fetch"), and a page may write made-up ones into one URL on
 * purpose: Fauxton, the admin of CouchDB and PouchDB Server, logs out with
 * `DELETE http://_:_@host/_session` so that the browser forgets a Basic login, while its session is
 * the cookie its sign-in set. Taken for the Basic login the browser sent, `_:_` was asked of the
 * user as `BASIC_PASSWORD` and sent on every step, which the server refused (401).
 *
 * Evidence, never the user's name: the request was answered 2xx while carrying the session an
 * earlier answer of its host set (a cookie that answer set; or, when the recorder kept none of the
 * request's cookies, as chrome-har does, a cookie the browser held then), and no request to that
 * origin recorded Basic credentials of its own. A server that took the session had no reason to
 * challenge, so the browser sent no credentials.
 *
 * @module
 */
import type { HarRecord } from "./har_model.ts";

/**
 * Takes away the `Authorization` header that `url_credentials.ts` put back from the user part of
 * each request that, by the evidence above, sent none. Returns how many it took away from.
 *
 * @example
 * ```ts
 * import { dropUnsentUrlCredentials } from "./url_credentials_unsent.ts";
 * import { parseHar } from "./har_model.ts";
 * const ok = (setCookie?: string) => ({ status: 200,
 *   headers: setCookie ? [{ name: "Set-Cookie", value: setCookie }] : [] });
 * const { records } = parseHar(JSON.stringify({ log: { entries: [
 *   { request: { method: "POST", url: "http://127.0.0.1:5984/_session" }, response: ok("S=a1; Path=/") },
 *   { request: { method: "DELETE", url: "http://_:_@127.0.0.1:5984/_session" }, response: ok() },
 * ] } }), []);
 * if (dropUnsentUrlCredentials(records) !== 1) throw new Error();
 * if (records[1].headers.some((h) => h.name === "Authorization")) throw new Error();
 * ```
 */
export function dropUnsentUrlCredentials(records: readonly HarRecord[]): number {
  const ownBasic = new Set(
    records.filter((r) => !r.urlCredentials && authorization(r) !== undefined)
      .map((r) => r.url.origin),
  );
  // The cookies each host's answers had set so far, by name (an empty value deletes one).
  const jars = new Map<string, Map<string, string>>();
  let dropped = 0;
  for (const r of records) {
    const jar = jars.get(r.url.hostname) ?? new Map<string, string>();
    jars.set(r.url.hostname, jar);
    if (r.urlCredentials && !ownBasic.has(r.url.origin) && answered(r) && carriesSession(r, jar)) {
      r.headers = r.headers.filter((h) => h.name.toLowerCase() !== "authorization");
      r.urlCredentials = false;
      dropped++;
    }
    for (const c of r.setCookies) jar.set(c.name, c.value);
  }
  return dropped;
}

/** A session cookie `jar` holds that `r` sent, or any, when the recording kept none of its cookies. */
function carriesSession(r: HarRecord, jar: ReadonlyMap<string, string>): boolean {
  if (r.cookies.length === 0) return [...jar.values()].some((v) => v !== "");
  return r.cookies.some((c) => c.value !== "" && jar.get(c.name) === c.value);
}

function answered(r: HarRecord): boolean {
  return r.status !== undefined && r.status >= 200 && r.status < 300;
}

function authorization(r: HarRecord): string | undefined {
  return r.headers.find((h) => h.name.toLowerCase() === "authorization")?.value;
}

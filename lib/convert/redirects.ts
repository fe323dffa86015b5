/**
 * Cookies set by a redirect, put back where they were set. chrome-har
 * (DevTools events turned into a HAR) can attach the `Set-Cookie` of a `303`
 * after a form login to the entry the browser was sent to next: the login's
 * response then sets nothing, and the page after it appears to set the
 * session cookie its own request already sent. A response cannot set what
 * its own request sent; the redirect that led to it did. It can also give that
 * entry the redirect's `Cookie` header before its own: a browser sends one.
 *
 * @module
 */
import type { HarRecord } from "./har_model.ts";
import { parseCookieHeader } from "./_har_fields.ts";

/** A redirect and where it sends the browser. */
interface Redirect {
  r: HarRecord;
  to: string | undefined;
}

/** The `Location` header a response recorded, as written. */
function locationHeader(r: HarRecord): unknown {
  const response = r.raw.response as Record<string, unknown> | undefined;
  const headers = Array.isArray(response?.headers) ? response.headers : [];
  return headers.find((h) => typeof h?.name === "string" && h.name.toLowerCase() === "location")
    ?.value;
}

/** Where a redirect's response sends the browser (`Location`, else `redirectURL`). */
function location(r: HarRecord): URL | undefined {
  const response = r.raw.response as Record<string, unknown> | undefined;
  const header = locationHeader(r);
  const target = typeof header === "string" && header !== ""
    ? header
    : typeof response?.redirectURL === "string"
    ? response.redirectURL
    : "";
  if (target === "" || !URL.canParse(target, r.url)) return undefined;
  const url = new URL(target, r.url);
  url.hash = "";
  return url;
}

/** The last redirect before `r` that sent the browser to it. */
function redirectTo(redirects: Redirect[], r: HarRecord): HarRecord | undefined {
  const href = new URL(r.url);
  href.hash = "";
  return redirects.filter((x) => x.r.index < r.index && x.to === href.href).at(-1)?.r;
}

/**
 * The redirect that set `cookies`: back along the chain that led to `next`
 * while a hop's own request sent them already (chrome-har may record a
 * login's cookie on the last of several redirects), at most once per hop.
 */
function setter(
  redirects: Redirect[],
  next: HarRecord,
  cookies: HarRecord["setCookies"],
): HarRecord | undefined {
  const sent = (r: HarRecord) =>
    cookies.every((c) => r.cookies.some((s) => s.name === c.name && s.value === c.value));
  let from = redirectTo(redirects, next);
  for (let hops = 0; from && sent(from) && hops < redirects.length; hops++) {
    const before = redirectTo(redirects, from);
    if (!before) break;
    from = before;
  }
  return from;
}

/**
 * Keeps the last of the `Cookie` headers of a request a redirect led to, the browser's own, when
 * an earlier one holds a stale value of one of its cookies: that one was the redirect's request's
 * (a login's, before its answer renewed the session), given back to it when it was recorded with
 * none. Whether it did.
 */
function ownCookieHeader(redirects: Redirect[], next: HarRecord): boolean {
  const headers = next.headers.filter((h) => h.name.toLowerCase() === "cookie");
  const from = headers.length > 1 ? redirectTo(redirects, next) : undefined;
  if (!from) return false;
  const own = headers[headers.length - 1];
  // Only a stale value tells them apart: the same cookies again (Jupyter's `_xsrf` before its
  // `username-…`) are one browser's, already sent as it sent them.
  const mine = parseCookieHeader(own.value);
  const stale = parseCookieHeader(headers[0].value).some((c) =>
    mine.some((m) => m.name === c.name && m.value !== c.value)
  );
  if (!stale) return false;
  if (from.cookies.length === 0) from.cookies = parseCookieHeader(headers[0].value);
  next.cookies = parseCookieHeader(own.value);
  next.headers = next.headers.filter((h) => h.name.toLowerCase() !== "cookie" || h === own);
  return true;
}

/**
 * The hop that deleted the cookie `name`: back along the chain that led to `next`, the first hop
 * whose own request sent that cookie (the browser stopped sending it after that hop's answer),
 * when its response recorded no cookie of that name.
 */
function deleter(redirects: Redirect[], next: HarRecord, name: string): HarRecord | undefined {
  let from = redirectTo(redirects, next);
  for (let hops = 0; from && hops < redirects.length; hops++) {
    if (from.cookies.some((s) => s.name === name)) {
      return from.setCookies.some((s) => s.name === name) ? undefined : from;
    }
    from = redirectTo(redirects, from);
  }
  return undefined;
}

/**
 * The hop whose header block `next` was given: `next` answered without redirecting yet recorded
 * a `Location`, the very one a hop of the chain that led to it answered. chrome-har gave LDAP
 * Account Manager's list page (`200`) its login's `302` headers, `Location: ./main.php` and the
 * renewed session's `Set-Cookie`, and its own request no `Cookie`: so nothing it sent tells the
 * cookie was not its own, but a page that answers 200 sends no browser anywhere.
 */
function headersOwner(redirects: Redirect[], next: HarRecord): HarRecord | undefined {
  const stray = locationHeader(next);
  if (typeof stray !== "string" || stray === "") return undefined;
  if (next.status === undefined || (next.status >= 300 && next.status < 400)) return undefined;
  let from = redirectTo(redirects, next);
  for (let hops = 0; from && hops < redirects.length; hops++) {
    if (locationHeader(from) === stray) return from;
    from = redirectTo(redirects, from);
  }
  return undefined;
}

/**
 * Moves the cookies `next` sets to the hop whose headers it was given ({@linkcode headersOwner})
 * when that hop recorded none of their names. The note, or undefined.
 */
function moveStrayHeaders(redirects: Redirect[], next: HarRecord): string | undefined {
  const from = next.setCookies.length > 0 ? headersOwner(redirects, next) : undefined;
  if (!from) return undefined;
  const moved = next.setCookies.filter((c) => !from.setCookies.some((s) => s.name === c.name));
  if (moved.length === 0) return undefined;
  from.setCookies.push(...moved);
  next.setCookies = next.setCookies.filter((c) => !moved.includes(c));
  return `The recording gave ${next.method} ${next.url.pathname} (${next.status}) the headers of ${from.method} ${from.url.pathname} (${from.status}), its Location and cookies: they are captured from ${from.method} ${from.url.pathname}.`;
}

/**
 * Moves each deletion of a cookie (an empty value) that `next`'s response records, though its own
 * request did not send that cookie, to the hop of the redirect chain that deleted it
 * ({@linkcode deleter}): chrome-har recorded Jingo's sign-out (`302`, `JingoSession=; expires=…
 * 1970`) on the chain's last page, and the cookies filled into the hops between then held the
 * old session. No note: the flow then sends what the browser sent, and five stored chrome-har
 * recordings (Cacti, DokuWiki, Tiny Tiny RSS, Zabbix, a form app) have such a sign-out whose flow
 * it leaves as it was.
 */
function moveDeletions(redirects: Redirect[], next: HarRecord): void {
  const deletions = next.setCookies.filter((c) =>
    (c.value === "" || c.value === "deleted") && !next.cookies.some((s) => s.name === c.name)
  );
  for (const deletion of deletions) {
    const from = deleter(redirects, next, deletion.name);
    if (!from) continue;
    from.setCookies.push(deletion);
    next.setCookies = next.setCookies.filter((c) => c !== deletion);
  }
}

/**
 * Moves each cookie an entry's response sets *and* its own request already
 * sent (same name and value) to the redirect that set it: the one that led
 * to that entry, or the hop before it along the chain while a hop's own
 * request sent the cookie already; when that response recorded no cookie of
 * that name; first keeps a redirected-to request's own `Cookie` header, and moves a deletion of a
 * cookie the entry's request did not send to the hop of the chain that sent it last; then moves the
 * cookies of a page given a hop's whole header block ({@linkcode headersOwner}) to that hop.
 * Returns one note per repair, naming the requests.
 *
 * @example
 * ```ts
 * import { reattachRedirectCookies } from "./redirects.ts";
 * import { parseHar } from "./har_model.ts";
 * const { records } = parseHar(JSON.stringify({ log: { entries: [
 *   { request: { method: "POST", url: "https://app.test/login" },
 *     response: { status: 303, headers: [{ name: "location", value: "/home" }] } },
 *   { request: { method: "GET", url: "https://app.test/home", headers: [{ name: "cookie", value: "sid=s-7654321" }] },
 *     response: { status: 200, headers: [{ name: "set-cookie", value: "sid=s-7654321; Path=/" }] } },
 * ] } }), []);
 * const notes = reattachRedirectCookies(records);
 * if (records[0].setCookies[0]?.value !== "s-7654321" || records[1].setCookies.length !== 0) {
 *   throw new Error(JSON.stringify(records.map((r) => r.setCookies)));
 * }
 * if (notes.length !== 1) throw new Error();
 * ```
 */
export function reattachRedirectCookies(records: HarRecord[]): string[] {
  const notes: string[] = [];
  const redirects = records.filter((r) =>
    r.status !== undefined && r.status >= 300 && r.status < 400
  )
    .map((r) => ({ r, to: location(r)?.href }))
    .filter((x) => x.to !== undefined);
  if (redirects.length === 0) return notes;
  for (const next of records) {
    moveDeletions(redirects, next);
    if (ownCookieHeader(redirects, next)) {
      notes.push(
        `The recording gave ${next.method} ${next.url.pathname} the Cookie header of the redirect that led to it besides its own: it sends its own.`,
      );
    }
    const echoed = next.setCookies.filter((c) =>
      c.value !== "" && next.cookies.some((s) => s.name === c.name && s.value === c.value)
    );
    if (echoed.length === 0) continue;
    const from = setter(redirects, next, echoed);
    if (!from) continue;
    const names = new Set(
      echoed.filter((c) => !from.setCookies.some((s) => s.name === c.name)).map((c) => c.name),
    );
    // Every line of a moved name goes back with it: a deletion the redirect wrote before setting
    // the cookie anew (`sessauth=-del-; Max-Age=0`, then its value) was the redirect's too.
    const moved = next.setCookies.filter((c) => names.has(c.name));
    if (moved.length === 0) continue;
    from.setCookies.push(...moved);
    next.setCookies = next.setCookies.filter((c) => !moved.includes(c));
    notes.push(
      `The recording attached the cookies set by ${from.method} ${from.url.pathname} (${from.status}) to a request its redirects led to, ${next.method} ${next.url.pathname}, which already sent them: they are captured from ${from.method} ${from.url.pathname}.`,
    );
  }
  // Then what no request's own cookies told: a page given a hop's whole header block.
  for (const next of records) {
    const stray = moveStrayHeaders(redirects, next);
    if (stray) notes.push(stray);
  }
  return notes;
}

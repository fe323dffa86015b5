/**
 * Cookies the browser held for a request recorded without them, as the requests the flow drops
 * show. chrome-har records a request whose DevTools extra info came late with the page's
 * provisional headers alone: no `Cookie`, and none of the headers only the network stack adds
 * (`Host`, or HTTP/2's `:authority`). When the answer before it also lost a `Set-Cookie` (Icinga
 * Web 2's login page sets `_chc` and its session; chrome-har keeps `_chc` at times), the cookies
 * the converter saw set are not all the browser sent: the login's post went with the session,
 * and only the stylesheet, scripts and images the page loaded in between (static assets the
 * flow drops) show it.
 *
 * So a kept request recorded that way is given the cookies the dropped requests of its origin
 * sent after the kept request of that origin before it (whose answer could have set them) and
 * before it, but for those a kept answer set or cleared (the jar's); the correlation then reads
 * each from the answer that set it (`correlate/unseen_cookies.ts`). A value the answer of a dropped
 * request set is not given: that answer is not replayed, so no step could hold it (ungit's page
 * sets an anonymous session the sign-in then sent). A request the browser really
 * sent without cookies stays as it is: one recorded with its wire headers (`Host`) and no
 * `Cookie` went without them (`credentials: 'omit'`, or none matched), and the cookies of
 * another origin never count.
 *
 * @module
 */
import type { HarRecord } from "./har_model.ts";
import type { Correlator } from "./correlate/mod.ts";

/**
 * Notes in `c.heldCookies`, for each record of `kept` recorded with neither its cookies nor its
 * wire headers, the cookies the records of `all` not kept show the browser held for it (the last
 * value of each name, in the order first seen), when any did. Returns `c`.
 *
 * @example
 * ```ts
 * import { holdDroppedCookies } from "./held_cookies.ts";
 * import { newCorrelator } from "./correlate/mod.ts";
 * const rec = (index: number, path: string, cookies: string[], headers: string[] = []) => ({
 *   index, url: new URL(`http://a.test${path}`), setCookies: [],
 *   headers: headers.map((name) => ({ name, value: "a.test" })),
 *   cookies: cookies.map((name) => ({ name, value: `${name}-1` })),
 * });
 * const page = rec(0, "/login", [], ["Host"]);
 * const css = rec(1, "/site.css", ["sid"], ["Host"]);
 * const post = rec(2, "/login", []);
 * // deno-lint-ignore no-explicit-any
 * const held = (all: any[], kept: any[]) => holdDroppedCookies(newCorrelator("a"), all, kept);
 * const c = held([page, css, post], [page, post]);
 * // deno-lint-ignore no-explicit-any
 * if (JSON.stringify(c.heldCookies.get(post as any)) !== '[{"name":"sid","value":"sid-1"}]') {
 *   throw new Error();
 * }
 * // The same post recorded with its wire headers went without cookies.
 * const sent = rec(2, "/login", [], ["Host"]);
 * if (held([page, css, sent], [page, sent]).heldCookies.size !== 0) throw new Error();
 * ```
 */
export function holdDroppedCookies(
  c: Correlator,
  all: readonly HarRecord[],
  kept: readonly HarRecord[],
): Correlator {
  const flowHas = new Set(kept);
  // Per origin, what the kept requests so far show: the last one, and the cookies their answers
  // set or cleared (the jar's); kept once as the loop goes, not gathered anew per request.
  const mine = new Map<string, { before?: HarRecord; jars: Set<string> }>();
  const dropped = byOrigin(all.filter((d) => !flowHas.has(d)));
  // A value a dropped answer set is that old instance's: no step's answer sets it again, so the
  // request goes without it, as on a first visit (ungit's page sets an anonymous `connect.sid`).
  const setByDropped = new Set(
    all.filter((d) => !flowHas.has(d)).flatMap((d) =>
      d.setCookies.map((cookie) => `${d.url.host}\n${cookie.name}=${cookie.value}`)
    ),
  );
  for (const r of kept) {
    const origin = r.url.origin;
    const seen = mine.get(origin) ?? { jars: new Set<string>() };
    mine.set(origin, seen);
    const { before, jars } = seen;
    if (before !== undefined && !sentOwn(r)) {
      const shown = new Map<string, string>();
      for (const d of dropped.get(origin) ?? []) {
        if (!earlier(before, d) || !earlier(d, r)) continue;
        for (const cookie of d.cookies) {
          if (jars.has(cookie.name)) continue;
          if (setByDropped.has(`${d.url.host}\n${cookie.name}=${cookie.value}`)) continue;
          shown.set(cookie.name, cookie.value);
        }
      }
      if (shown.size > 0) {
        c.heldCookies.set(r, [...shown].map(([name, value]) => ({ name, value })));
      }
    }
    seen.before = r;
    for (const cookie of r.setCookies) jars.add(cookie.name);
  }
  return c;
}

/** Whether `r` was recorded with its cookies, a `Cookie` header or its wire headers. */
function sentOwn(r: HarRecord): boolean {
  return r.cookies.length > 0 || hasHeader(r, "cookie") || wireHeaders(r);
}

/** `records` by origin, each origin's in their order. */
function byOrigin(records: readonly HarRecord[]): Map<string, HarRecord[]> {
  const out = new Map<string, HarRecord[]>();
  for (const r of records) {
    const list = out.get(r.url.origin) ?? [];
    list.push(r);
    out.set(r.url.origin, list);
  }
  return out;
}

/** Whether `r` was recorded with the headers only the network stack adds. */
function wireHeaders(r: HarRecord): boolean {
  return hasHeader(r, "host") || hasHeader(r, ":authority");
}

/** Whether `r` was recorded with a header of that (lower-case) name. */
function hasHeader(r: HarRecord, lower: string): boolean {
  return r.headers.some((h) => h.name.toLowerCase() === lower);
}

/** Whether `a` was sent before `b`: by their start times when both have one, else by place. */
function earlier(a: HarRecord, b: HarRecord): boolean {
  if (a.started !== undefined && b.started !== undefined && a.started !== b.started) {
    return a.started < b.started;
  }
  return a.index < b.index;
}

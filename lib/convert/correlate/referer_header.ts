/**
 * The `Referer` a browser sent with a write. A cookie-session server may refuse a write whose
 * `Referer` is not one of its own pages: Fossil's web UI takes a request without one that
 * starts with its base URL for a cross-site forgery and runs it with its database locked
 * (the ticket's submit answered 400 `not authorized`). Dropped as browser noise, such a
 * journey failed at its first write on any instance; written literally it would name the
 * recorded host. So, under the conditions `Origin` is kept (origin_header.ts: an unsafe request
 * that sends a cookie, a page on an origin of the recording's API), the `Referer` is sent on
 * that origin's base URL var with the page's path. A path that holds a value an answer handed
 * out or a secret (a recorded ticket's id), in a whole segment or a segment's path parameter
 * (Tomcat's `add;jsessionid=…`), names nothing on another instance, and its query may hold
 * anything: the base URL's root is sent then, and the query never.
 *
 * A link can act too: Request Tracker's Delete is a GET with a query
 * (`Update.html?Status=deleted&SubmitTicket=1&id=1`) answered with a redirect, and RT answers one
 * without its own site's `Referer` with a 200 page "Possible cross-site request forgery" and does
 * nothing. A GET or HEAD that sent a query and was answered with a redirect is taken for one that
 * acts, and keeps its `Referer` the same way.
 *
 * A page's script may be held to the same check on a read: osTicket's public ticket form fetches
 * a help topic's fields with `GET /ajax.php/form/help-topic/2` and answers `403 Forbidden.` to a
 * request that names no page. A request that says a script sent it (`X-Requested-With:
 * XMLHttpRequest`, the mark servers tell a script's request by) keeps its `Referer` too. A page
 * the browser navigated to, answered 200, keeps none.
 *
 * @module
 */
import type { HarRecord } from "../har_model.ts";
import { safeDecode } from "../json.ts";
import { originRef, ownPage } from "./origin_header.ts";
import type { Correlator } from "./state.ts";
import { actingGet } from "../acting_get.ts";

/**
 * The `referer` header of `r`, on the base URL var of its origin, when the browser sent one of
 * the recording's API with an unsafe request whose rewritten headers `sent` hold a cookie.
 *
 * @example
 * ```ts
 * import { refererHeader } from "./referer_header.ts";
 * import { newCorrelator } from "./pipeline.ts";
 * const c = newCorrelator("a");
 * const r = (referer: string) => ({ method: "POST", url: new URL("https://a.test/x"), headers: [{ name: "Referer", value: referer }] });
 * const sent: [string, string][] = [["cookie", "sid=${steps.login.capture.sid}"]];
 * // deno-lint-ignore no-explicit-any
 * if (refererHeader(c, r("https://a.test/tktnew?x=1") as any, sent)?.[1] !== "${origin:vars.base_url}/tktnew") throw new Error();
 * // deno-lint-ignore no-explicit-any
 * if (refererHeader(c, r("https://page.test/") as any, sent) || refererHeader(c, r("https://a.test/") as any, [])) throw new Error();
 * ```
 */
export function refererHeader(
  c: Correlator,
  r: HarRecord,
  sent: readonly [string, string][],
): [string, string] | undefined {
  const page = ownPage(c, r, sent, "referer", actingGet(r) || scriptSent(r))?.page;
  if (!page) return undefined;
  return ["referer", `${originRef(c, page.origin)}${pathOf(c, page)}`];
}

/** Whether `r` says a page's script sent it (`X-Requested-With: XMLHttpRequest`). */
function scriptSent(r: HarRecord): boolean {
  return r.headers.some((h) =>
    h.name.toLowerCase() === "x-requested-with" && h.value.trim().toLowerCase() === "xmlhttprequest"
  );
}

/**
 * The page's path as a template, or `/` when a segment of it is a value an answer handed out or
 * a secret; a segment that is a name the run makes its own (derived_names.ts) is the run's.
 */
function pathOf(c: Correlator, page: URL): string {
  const segments = page.pathname.split("/").map(safeDecode).filter((s) => s !== "");
  const recorded = segments.flatMap(withParameters).some((s) =>
    c.secrets.has(s) || c.rules.producerFor(s) !== undefined
  );
  if (recorded) return "/";
  return page.pathname.split("/").map((raw) => {
    const own = c.generated.get(safeDecode(raw));
    return own !== undefined && /^\$\{vars\.[^}]+\}$/.test(own) ? own : c.sp.lit(raw);
  }).join("/");
}

/**
 * A segment and the values of its path parameters: a servlet container names the session in
 * the first page's links (`add;jsessionid=F74A…`), a value an answer handed out like a segment.
 */
function withParameters(segment: string): string[] {
  const [, ...params] = segment.split(";");
  return [segment, ...params.map((p) => p.slice(p.indexOf("=") + 1))];
}

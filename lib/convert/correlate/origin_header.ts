/**
 * The `Origin` a browser sent. Every browser sends it on an unsafe request,
 * and a cookie-session server may refuse one without its own origin, as
 * better-auth's CSRF check does (403 `MISSING_OR_NULL_ORIGIN`). Dropped as
 * browser noise, such a journey failed on its first replayed POST; written
 * literally it would name the recorded host, refused (`INVALID_ORIGIN`) by
 * a fresh instance elsewhere. So on a POST, PUT, PATCH or DELETE that sends
 * a cookie (the credential a CSRF check guards; a bearer token needs none),
 * an `Origin` that is an API origin of the recording (the request's own, or
 * one a base URL var stands for) is sent as that var's origin,
 * `${origin:vars.base_url}`; any other (a page the recording holds no
 * request to, `null`) stays dropped, as does one on a GET or a WebSocket.
 *
 * @module
 */
import type { HarRecord } from "../har_model.ts";
import { baseRef } from "./rewrite_value.ts";
import type { Correlator } from "./state.ts";

const UNSAFE = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/**
 * The `origin` header of `r`, as the origin of its base URL var, if the
 * browser sent one the recording's API answers at on an unsafe request
 * whose rewritten headers `sent` hold a cookie (see the module).
 *
 * @example
 * ```ts
 * import { originHeader } from "./origin_header.ts";
 * import { emptyCorrelator } from "./state.ts";
 * const c = emptyCorrelator("a", true);
 * const r = (origin: string) => ({ method: "POST", url: new URL("https://a.test/x"), headers: [{ name: "Origin", value: origin }] });
 * const sent: [string, string][] = [["cookie", "sid=${steps.login.capture.sid}"]];
 * // deno-lint-ignore no-explicit-any
 * if (originHeader(c, r("https://a.test") as any, sent)?.[1] !== "${origin:vars.base_url}") throw new Error();
 * // deno-lint-ignore no-explicit-any
 * if (originHeader(c, r("https://page.test") as any, sent) || originHeader(c, r("https://a.test") as any, [])) throw new Error();
 * ```
 */
export function originHeader(
  c: Correlator,
  r: HarRecord,
  sent: readonly [string, string][],
): [string, string] | undefined {
  const own = ownPage(c, r, sent, "origin");
  if (!own || own.page.origin !== own.said) return undefined;
  return ["origin", originRef(c, own.page.origin)];
}

/**
 * The page a browser's `header` (`origin`, `referer`) names, as said and parsed, when `r` is an
 * unsafe request whose rewritten headers `sent` hold a cookie and the page is on an origin of
 * the recording's API (the request's own, or one a base URL var stands for): the conditions under
 * which a CSRF check may want it and a var can stand for its origin. `acting` says the caller
 * found a safe request that acts (a GET that was answered with a redirect).
 *
 * @example
 * ```ts
 * import { ownPage } from "./origin_header.ts";
 * import { emptyCorrelator } from "./state.ts";
 * const c = emptyCorrelator("a", true);
 * const r = { method: "PUT", url: new URL("https://a.test/x"), headers: [{ name: "Referer", value: "https://a.test/p" }] };
 * // deno-lint-ignore no-explicit-any
 * if (ownPage(c, r as any, [["cookie", "s=1"]], "referer")?.page.pathname !== "/p") throw new Error();
 * ```
 */
export function ownPage(
  c: Correlator,
  r: HarRecord,
  sent: readonly [string, string][],
  header: string,
  acting = false,
): { said: string; page: URL } | undefined {
  if (!(UNSAFE.has(r.method) || acting) || !sent.some(([name]) => name === "cookie")) {
    return undefined;
  }
  const said = r.headers.find((h) => h.name.toLowerCase() === header)?.value.trim() ?? "";
  if (!URL.canParse(said)) return undefined;
  const page = new URL(said);
  if (!/^https?:$/.test(page.protocol)) return undefined;
  if (page.origin !== r.url.origin && !c.origins.has(page.origin)) return undefined;
  return { said, page };
}

/**
 * The base URL var standing for `origin`, as its origin: `${origin:vars.base_url}`.
 *
 * @example
 * ```ts
 * import { originRef } from "./origin_header.ts";
 * import { emptyCorrelator } from "./state.ts";
 * if (!originRef(emptyCorrelator("a", true), "https://a.test").startsWith("${origin:")) throw new Error();
 * ```
 */
export function originRef(c: Correlator, origin: string): string {
  return baseRef(c, origin).replace(/^\$\{/, "${origin:");
}

/**
 * The double-submit token a browser client echoes. A server whose session is
 * a cookie may set a second cookie its pages' script can read, `XSRF-TOKEN`,
 * and refuse an unsafe request that does not send it back in `X-XSRF-TOKEN`
 * (FoalTS's session CSRF check answers 403 "CSRF token missing or
 * incorrect"; Laravel and Spring's cookie token repository use the same
 * pair). The pair is the one Angular's `HttpClient` and axios send on their
 * own on every POST, PUT, PATCH and DELETE, so every browser client passes
 * it, and a document never says so. The value is the server's own: the
 * sign-in captures the cookie its answer sets (empty text when it sets
 * none), and a step sends the header only when that capture holds a value (`omit_empty_headers`), so
 * a server that sets no such cookie gets no header.
 *
 * @module
 */
import { type YMap, ymap } from "../yaml_out.ts";
import { insertMap, mapAt, valueAt } from "../yaml_tree.ts";

/** The cookie a browser client reads the token from. */
export const XSRF_COOKIE = "XSRF-TOKEN";

/** The header a browser client sends it back in. */
export const XSRF_HEADER = "X-XSRF-TOKEN";

const UNSAFE = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/**
 * Whether a request of `method` echoes the token: an unsafe one, as a browser client does.
 *
 * @example
 * ```ts
 * import { echoesXsrf } from "./xsrf_cookie.ts";
 * if (!echoesXsrf("PATCH") || echoesXsrf("GET")) throw new Error();
 * ```
 */
export function echoesXsrf(method: string): boolean {
  return UNSAFE.has(method.toUpperCase());
}

/**
 * The capture of the token cookie on the sign-in's step. A server may set
 * none: the capture is then empty text, not unset, as every unsafe request
 * reads the setup's output (an unset one would be an expression error of
 * each step that sends it; empty, the header is left out).
 *
 * @example
 * ```ts
 * import { xsrfCapture } from "./xsrf_cookie.ts";
 * const text = JSON.stringify(xsrfCapture());
 * if (!text.includes('"otherwise",""') || !text.includes("XSRF-TOKEN=")) throw new Error(text);
 * ```
 */
export function xsrfCapture(): YMap {
  const set = ymap([["path", "$.headers.set-cookie"], ["matches", `${XSRF_COOKIE}=`]]);
  return ymap([["cookie", XSRF_COOKIE], ["optional", true], ["when", set], ["otherwise", ""]]);
}

/**
 * Adds `X-XSRF-TOKEN: value` to `step`'s request when it is unsafe, and
 * leaves the header out when `value` renders empty (`omit_empty_headers`).
 *
 * @example
 * ```ts
 * import { withXsrfEcho } from "./xsrf_cookie.ts";
 * import { ymap } from "../yaml_out.ts";
 * const step = ymap([["name", "a"], ["request", ymap([["method", "POST"], ["url", "u"]])]]);
 * withXsrfEcho(step, "${setup.xsrf}");
 * const text = JSON.stringify(step);
 * if (!text.includes('"X-XSRF-TOKEN","${setup.xsrf}"') || !text.includes("omit_empty_headers")) {
 *   throw new Error(text);
 * }
 * const get = ymap([["request", ymap([["method", "GET"], ["url", "u"]])]]);
 * withXsrfEcho(get, "${setup.xsrf}");
 * if (JSON.stringify(get).includes("XSRF")) throw new Error();
 * ```
 */
export function withXsrfEcho(step: YMap, value: string): void {
  const request = mapAt(step, "request");
  if (!request || !echoesXsrf(String(valueAt(request, "method")))) return;
  const headers = mapAt(request, "headers") ?? insertMap(request, "headers", ["url", "query"]);
  if (headers.entries.some(([k]) => k.toLowerCase() === XSRF_HEADER.toLowerCase())) return;
  headers.entries.push([XSRF_HEADER, value]);
  const options = mapAt(step, "options") ?? insertMap(step, "options", ["request"]);
  if (!options.entries.some(([k]) => k === "omit_empty_headers")) {
    options.entries.push(["omit_empty_headers", true]);
  }
}

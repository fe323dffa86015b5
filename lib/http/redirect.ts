/**
 * Following a redirect the way browsers do, one hop at a time, so a cookie
 * jar sees every hop's cookies (a login that sets its session cookie on a
 * 303 is the common case) and the same rules hold whichever way a request
 * is sent.
 *
 * @module
 */
import type { ResolvedRequest } from "./request.ts";

/**
 * The most redirects one request follows before it is an error.
 *
 * @example
 * ```ts
 * import { MAX_REDIRECTS } from "./redirect.ts";
 * if (MAX_REDIRECTS !== 20) throw new Error();
 * ```
 */
export const MAX_REDIRECTS = 20;

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
/** Headers that describe a body: gone with the body when a redirect turns the request into a GET. */
const BODY_HEADERS = new Set([
  "content-type",
  "content-length",
  "content-encoding",
  "content-language",
  "content-location",
]);
/** Credentials that stay with their origin (the fetch standard drops `authorization`; cookies come from the jar). */
const ORIGIN_HEADERS = new Set(["authorization", "cookie", "proxy-authorization"]);

/**
 * The request a redirect response leads to, or `undefined` when the response
 * is final (not a redirect, or no usable `location`). 303, and 301/302 after
 * a POST, continue as a GET without the body; 307/308 repeat the request; a
 * hop to another origin drops the credentials.
 *
 * @example
 * ```ts
 * import { redirectTarget } from "./redirect.ts";
 * const post = { method: "POST", url: "https://a.test/login", headers: [["content-type", "text/plain"], ["authorization", "x"]] as [string, string][], body: "u=1" };
 * const next = redirectTarget(post, 303, "https://b.test/home");
 * if (next?.method !== "GET" || next.url !== "https://b.test/home" || next.body !== undefined) throw new Error();
 * if (next.headers.length !== 0) throw new Error("body and origin headers dropped");
 * if (redirectTarget(post, 307, "/again")?.body !== "u=1") throw new Error("307 keeps the body");
 * if (redirectTarget(post, 200, "/x") !== undefined) throw new Error();
 * ```
 */
export function redirectTarget(
  request: ResolvedRequest,
  status: number,
  location: string | undefined,
): ResolvedRequest | undefined {
  if (!REDIRECTS.has(status) || !location) return undefined;
  let url: URL;
  try {
    url = new URL(location, request.url);
  } catch {
    return undefined;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return undefined;
  const toGet = status === 303
    ? request.method !== "HEAD"
    : (status === 301 || status === 302) && request.method === "POST";
  const sameOrigin = url.origin === new URL(request.url).origin;
  const headers = request.headers.filter(([name]) => {
    const lower = name.toLowerCase();
    return !(toGet && BODY_HEADERS.has(lower)) && (sameOrigin || !ORIGIN_HEADERS.has(lower));
  });
  if (toGet) return { method: "GET", url: url.href, headers };
  return { ...request, url: url.href, headers };
}

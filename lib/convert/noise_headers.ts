/**
 * The noise of a kept request's headers: those a browser or proxy adds by
 * itself or that change on every request, and analytics cookies. What is
 * left is what the flow sends.
 *
 * @module
 */
import type { NameValue } from "./har_model.ts";
import { METHOD } from "../load/context.ts";

/** Request headers a browser or proxy adds by itself, or that change on every request. */
const DROP_HEADERS = new Set([
  "host",
  "content-length",
  "connection",
  "keep-alive",
  "proxy-connection",
  "transfer-encoding",
  "te",
  "trailer",
  "upgrade",
  "expect",
  "accept-encoding",
  "accept-language",
  "user-agent",
  "referer",
  "origin",
  "if-none-match",
  "if-modified-since",
  "if-match",
  "if-unmodified-since",
  "if-range",
  "cache-control",
  "pragma",
  "dnt",
  "priority",
  "purpose",
  "sec-purpose",
  "sec-gpc",
  "upgrade-insecure-requests",
  "traceparent",
  "tracestate",
  "baggage",
  "sentry-trace",
  "b3",
  "x-request-id",
  "x-correlation-id",
  "x-amzn-trace-id",
  "x-cloud-trace-context",
  "x-client-data",
]);

const DROP_HEADER_PREFIX =
  /^(:|sec-ch-|sec-fetch-|sec-websocket-|x-b3-|x-datadog-|x-forwarded-|access-control-request-)/;

/**
 * Whether a request header is kept: not a pseudo-header, not added by the
 * browser, not volatile (tracing ids, conditional and cache headers).
 * Cookies are handled separately (see {@linkcode isAnalyticsCookie}).
 *
 * @example
 * ```ts
 * import { keepHeader } from "./noise_headers.ts";
 * if (keepHeader(":authority") || keepHeader("User-Agent") || !keepHeader("x-csrf-token")) {
 *   throw new Error();
 * }
 * if (keepHeader("Bad Name") || keepHeader("\ufeff")) {
 *   throw new Error();
 * }
 * ```
 */
export function keepHeader(name: string): boolean {
  const lower = name.toLowerCase();
  // A name that is no HTTP token (a space, a BOM, a control byte) cannot be sent, and the flow would not load.
  return !DROP_HEADERS.has(lower) && !DROP_HEADER_PREFIX.test(lower) && METHOD.test(name);
}

/**
 * Cookies that only carry analytics or consent state (Google Analytics,
 * Facebook pixel, Hotjar, Segment, Mixpanel, Cloudflare bot scores, …).
 *
 * @example
 * ```ts
 * import { isAnalyticsCookie } from "./noise_headers.ts";
 * if (!isAnalyticsCookie("_ga_ABC123") || isAnalyticsCookie("session_id")) throw new Error();
 * ```
 */
export function isAnalyticsCookie(name: string): boolean {
  return /^(_ga(_.*)?|_gid|_gat(_.*)?|_gcl_\w+|_fbp|_fbc|__utm\w*|_hj\w*|ajs_\w+|mp_\w+|_uetsid|_uetvid|_clck|_clsk|amplitude_\w+|optimizely\w*|__cf_bm|_cfuvid|cookieconsent\w*|OptanonConsent|OptanonAlertBoxClosed|_pk_\w+|intercom-\w+|_dc_gtm_\w+)$/i
    .test(name);
}

/**
 * Request headers after dropping noise ({@linkcode keepHeader}); names in
 * lower case, the first of each name kept.
 *
 * @example
 * ```ts
 * import { cleanHeaders } from "./noise_headers.ts";
 * const kept = cleanHeaders([
 *   { name: ":path", value: "/a" },
 *   { name: "Accept", value: "application/json" },
 *   { name: "accept", value: "text/html" },
 * ]);
 * if (kept.length !== 1 || kept[0].name !== "accept" || kept[0].value !== "application/json") {
 *   throw new Error();
 * }
 * ```
 */
export function cleanHeaders(headers: NameValue[]): NameValue[] {
  const seen = new Set<string>();
  const out: NameValue[] = [];
  for (const h of headers) {
    const lower = h.name.toLowerCase();
    if (!keepHeader(lower) || seen.has(lower)) continue;
    seen.add(lower);
    out.push({ name: lower, value: h.value });
  }
  return out;
}

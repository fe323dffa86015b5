/**
 * A recording as Chrome DevTools' default "Export HAR (sanitized)" (Chrome
 * 130 and later) writes it: every request's `Cookie` and `Authorization`
 * headers and every answer's `Set-Cookie` headers left out, both `cookies`
 * arrays emptied, the creator named `WebInspector`; everything else kept.
 * The tests make one from a stored recording to measure what a new user's
 * most common export converts to.
 *
 * @module
 */

/** The request headers DevTools leaves out, lower-cased. */
const REQUEST_STRIPPED = ["authorization", "cookie"];
/** The answer headers DevTools leaves out, lower-cased. */
const ANSWER_STRIPPED = ["set-cookie"];

type Json = Record<string, unknown>;

/** `headers` without those named in `stripped`, compared case-insensitively. */
function without(headers: unknown, stripped: string[]): unknown {
  if (!Array.isArray(headers)) return headers;
  return headers.filter((h) => !stripped.includes(String((h as Json)?.name).toLowerCase()));
}

/**
 * The HAR text `har` as DevTools' sanitized export would have written it.
 *
 * @example
 * ```ts
 * import { sanitizedHar } from "./sanitized_har.ts";
 * const har = JSON.stringify({ log: { creator: { name: "Playwright" }, entries: [{
 *   request: { headers: [{ name: "Cookie", value: "s=1" }, { name: "Accept", value: "*" }],
 *     cookies: [{ name: "s", value: "1" }] },
 *   response: { headers: [{ name: "set-cookie", value: "s=2" }], cookies: [{ name: "s" }] },
 * }] } });
 * const log = JSON.parse(sanitizedHar(har)).log;
 * if (log.creator.name !== "WebInspector") throw new Error();
 * if (JSON.stringify(log.entries[0]).includes("s=")) throw new Error("a cookie is left");
 * if (log.entries[0].request.headers.length !== 1) throw new Error("Accept is kept");
 * ```
 */
export function sanitizedHar(har: string): string {
  const doc = JSON.parse(har) as { log: Json };
  const log = doc.log;
  log.creator = { name: "WebInspector", version: "537.36" };
  for (const entry of (log.entries ?? []) as Json[]) {
    const request = entry.request as Json;
    const response = entry.response as Json;
    request.headers = without(request.headers, REQUEST_STRIPPED);
    request.cookies = [];
    response.headers = without(response.headers, ANSWER_STRIPPED);
    response.cookies = [];
  }
  return JSON.stringify(doc);
}

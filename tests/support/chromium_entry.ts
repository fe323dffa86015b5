/**
 * One HAR entry in the shape Chromium's DevTools records it, for tests that
 * write a journey's recording by hand: request cookies only in their header,
 * every response header (each Set-Cookie its own) with `Content-Type` first,
 * the redirect's target in `redirectURL`, `_resourceType` as DevTools names it.
 *
 * @module
 */

/** What was sent and answered; `i` of {@linkcode chromiumEntry} dates it (a second apart). */
export interface Exchange {
  method: string;
  url: string;
  headers: [string, string][];
  postData?: { mimeType: string; text: string };
  status: number;
  mime: string;
  text: string;
  /** The response's headers after `Content-Type`. */
  answered?: [string, string][];
  /** DevTools' `_resourceType`: `document`, `xhr`, `fetch`, … */
  type: string;
}

/**
 * The `i`th entry of a recording: `exchange` in Chromium's shape.
 *
 * @example
 * ```ts
 * import { chromiumEntry } from "./chromium_entry.ts";
 * const moved = chromiumEntry(1, {
 *   method: "GET", url: "http://127.0.0.1:1/old", headers: [], status: 302, mime: "text/html",
 *   text: "", answered: [["Location", "/new"]], type: "document",
 * });
 * if (moved.response.redirectURL !== "/new" || moved.response.headers[0].name !== "Content-Type") {
 *   throw new Error();
 * }
 * ```
 */
export function chromiumEntry(i: number, exchange: Exchange) {
  const { postData, mime, answered = [] } = exchange;
  const pairs = (list: [string, string][]) => list.map(([name, value]) => ({ name, value }));
  return {
    startedDateTime: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(),
    time: 5,
    request: {
      method: exchange.method,
      url: exchange.url,
      headers: pairs(exchange.headers),
      cookies: [],
      ...(postData ? { postData } : {}),
    },
    response: {
      status: exchange.status,
      headers: pairs([["Content-Type", mime], ...answered]),
      cookies: [],
      content: { mimeType: mime, text: exchange.text },
      redirectURL: answered.find(([n]) => n === "Location")?.[1] ?? "",
    },
    _resourceType: exchange.type,
  };
}

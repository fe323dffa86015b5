/**
 * Credentials a recording holds only in a request URL's user part
 * (`http://user:password@host/…`). A page that hands a user and password to
 * `XMLHttpRequest.open` is recorded so by Playwright and chrome-har, with
 * no `Authorization` header, though the browser sent `Basic
 * base64(user:password)` on every request: that header is what the request
 * carried, so the record gets it and the URL loses its user part.
 *
 * @module
 */
import type { NameValue } from "./_har_fields.ts";

/**
 * Takes the user part out of `url` and gives back `headers` with the Basic
 * `Authorization` it stood for; `headers` as they are when the URL has none
 * or the request recorded its own `Authorization` (what it sent).
 *
 * @example
 * ```ts
 * import { urlCredentials } from "./url_credentials.ts";
 * const url = new URL("http://ada:p%40ss@dav.test/ada/");
 * const headers = urlCredentials(url, [{ name: "Accept", value: "*\/*" }]);
 * if (url.href !== "http://dav.test/ada/") throw new Error(url.href);
 * if (headers[1].value !== `Basic ${btoa("ada:p@ss")}`) throw new Error(headers[1].value);
 * ```
 */
export function urlCredentials(url: URL, headers: NameValue[]): NameValue[] {
  if (url.username === "" && url.password === "") return headers;
  const pair = `${decoded(url.username)}:${decoded(url.password)}`;
  url.username = "";
  url.password = "";
  if (headers.some((h) => h.name.toLowerCase() === "authorization")) return headers;
  // Basic carries the UTF-8 bytes of user:password (RFC 7617's charset, as browsers send it).
  const bytes = new TextEncoder().encode(pair);
  const value = `Basic ${btoa(String.fromCharCode(...bytes))}`;
  return [...headers, { name: "Authorization", value }];
}

/** A percent-encoded part of the URL as typed; as it is when its encoding is broken. */
function decoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

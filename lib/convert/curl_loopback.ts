/**
 * One local server spelled two ways. Docs write `localhost:8384/rest/…` on
 * one page and `http://127.0.0.1:8384/rest/…` on the next (Syncthing's REST
 * pages do): both name this machine's port 8384, so they are one server,
 * and a flow that gave each its own base URL asked the user for two
 * variables set to the same address. `localhost`, `127.0.0.1` and `[::1]`
 * with the same scheme and port become the origin written first; another
 * port, scheme or host stays another server.
 *
 * @module
 */
import type { CurlRecord } from "./curl_request.ts";

const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]"]);

/**
 * Gives every loopback spelling of an origin the host its first record
 * wrote (see the module).
 *
 * @example
 * ```ts
 * import { oneLoopbackOrigin } from "./curl_loopback.ts";
 * const at = (url: string) => ({ record: { url: new URL(url) }, extras: {} });
 * const records = [at("http://localhost:8384/a"), at("http://127.0.0.1:8384/b")];
 * // deno-lint-ignore no-explicit-any
 * oneLoopbackOrigin(records as any);
 * if (records[1].record.url.href !== "http://localhost:8384/b") throw new Error();
 * ```
 */
export function oneLoopbackOrigin(records: readonly CurlRecord[]): void {
  const first = new Map<string, string>();
  for (const { record } of records) {
    const url = record.url;
    if (!LOOPBACK.has(url.hostname)) continue;
    const key = `${url.protocol}//${url.port}`;
    const host = first.get(key);
    if (host === undefined) first.set(key, url.hostname);
    else url.hostname = host;
  }
}

/**
 * The request an `sse:` step sends, rendered in the step's scope: its URL,
 * headers (names lower-cased, `accept: text/event-stream` unless given,
 * `last-event-id` when one is set) and JSON body.
 *
 * @module
 */
import type { KindCall } from "../kind.ts";
import type { SseSpec } from "./read.ts";

/** What one connection sends; `headers` are shown in reports as sent. */
export interface SseRequest {
  method: "GET" | "POST";
  url: string;
  headers: [string, string][];
  body?: string;
}

/**
 * The request of `spec` now, or why it cannot be sent (a URL an expression
 * made that is not http or https).
 *
 * @example
 * ```ts
 * import { sseRequest } from "./request.ts";
 * import type { KindCall } from "../kind.ts";
 * const call = { text: (t: { source: string }) => t.source, render: () => ({}) } as unknown as KindCall;
 * const url = { source: "http://127.0.0.1:1/e", parts: ["http://127.0.0.1:1/e"] };
 * const got = sseRequest({ url, method: "GET", count: 1, reconnects: 0 }, call);
 * if (!("url" in got) || got.headers[0][1] !== "text/event-stream") throw new Error(JSON.stringify(got));
 * ```
 */
export function sseRequest(spec: SseSpec, call: KindCall): SseRequest | { badUrl: string } {
  const url = call.text(spec.url);
  try {
    if (!/^https?:$/.test(new URL(url).protocol)) return { badUrl: url };
  } catch {
    return { badUrl: url };
  }
  const headers = headersOf(spec, call);
  const has = (name: string) => headers.some(([n]) => n === name);
  if (!has("accept")) headers.unshift(["accept", "text/event-stream"]);
  const resume = spec.lastEventId ? call.text(spec.lastEventId) : "";
  if (resume !== "" && !has("last-event-id")) headers.push(["last-event-id", resume]);
  if (spec.body === undefined) return { method: spec.method, url, headers };
  const body = JSON.stringify(call.render(spec.body)) ?? "null";
  if (!has("content-type")) headers.push(["content-type", "application/json"]);
  return { method: spec.method, url, headers, body };
}

/**
 * The same request for a reconnection: `last-event-id` is the last ID the
 * stream set (none when it set none or cleared it).
 *
 * @example
 * ```ts
 * import { resumed } from "./request.ts";
 * const again = resumed({ method: "GET", url: "http://x.test/", headers: [["last-event-id", "1"]] }, "7");
 * if (again.headers[0][1] !== "7") throw new Error();
 * ```
 */
export function resumed(request: SseRequest, lastEventId: string): SseRequest {
  const headers = request.headers.filter(([name]) => name !== "last-event-id");
  if (lastEventId !== "") headers.push(["last-event-id", lastEventId]);
  return { ...request, headers };
}

/** The step's headers, rendered, names lower-cased; a value not text is sent as JSON. */
function headersOf(spec: SseSpec, call: KindCall): [string, string][] {
  const headers: [string, string][] = [];
  const given = spec.headers ? call.render(spec.headers) as Record<string, unknown> : {};
  for (const [name, value] of Object.entries(given ?? {})) {
    if (value === null || value === undefined) continue;
    headers.push([name.toLowerCase(), typeof value === "string" ? value : JSON.stringify(value)]);
  }
  return headers;
}

/**
 * The request with the jar's cookies after any `cookie` the step wrote.
 *
 * @example
 * ```ts
 * import { withCookies } from "./request.ts";
 * const own = { method: "GET" as const, url: "http://x.test/", headers: [["cookie", "a=1"]] as [string, string][] };
 * if (withCookies(own, "sid=2").headers[0][1] !== "a=1; sid=2") throw new Error();
 * if (withCookies(own, undefined) !== own) throw new Error();
 * ```
 */
export function withCookies(request: SseRequest, jar: string | undefined): SseRequest {
  if (!jar) return request;
  const at = request.headers.findIndex(([name]) => name === "cookie");
  const headers = [...request.headers];
  if (at < 0) headers.push(["cookie", jar]);
  else headers[at] = ["cookie", `${headers[at][1]}; ${jar}`];
  return { ...request, headers };
}

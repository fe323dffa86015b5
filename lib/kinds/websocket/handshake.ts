/**
 * The handshake request of one attempt, as an HTTP step's request is made:
 * the step's URL and headers rendered, the flow run's cookies for it (when
 * the step keeps a cookie jar), then the step's auth (its own `auth:` or its
 * flow's: a bearer token, an API key in a header, the query or a cookie…).
 *
 * @module
 */
import type { KindCall, KindRequest } from "../kind.ts";
import type { WebSocketSpec } from "./spec.ts";

/** The URL and headers the connection is opened with. */
export interface Handshake {
  url: string;
  headers: [string, string][];
}

/**
 * The handshake for this attempt: rendered, with the jar's cookies and the step's auth.
 *
 * @example
 * ```ts
 * import { handshakeRequest } from "./handshake.ts";
 * const spec = {
 *   url: { source: "ws://x.test/chat", parts: ["ws://x.test/chat"] },
 *   headers: [["x-room", { kind: "const", value: "lobby" }]] as [string, { kind: "const"; value: unknown }][],
 *   subprotocols: [], send: [], count: 1,
 * };
 * const call = {
 *   text: () => "ws://x.test/chat",
 *   render: (v: { value?: unknown }) => v.value,
 *   cookies: { header: () => "sid=1", store: () => {} },
 *   authorize: (r: { headers: [string, string][] }) =>
 *     Promise.resolve({ ...r, headers: [...r.headers, ["authorization", "Bearer t"]] }),
 * };
 * // deno-lint-ignore no-explicit-any
 * const got = await handshakeRequest(spec, call as any);
 * if (got.headers.map(([n]) => n).join() !== "x-room,cookie,authorization") throw new Error(String(got.headers));
 * ```
 */
export async function handshakeRequest(
  spec: WebSocketSpec,
  call: Pick<KindCall, "text" | "render" | "cookies" | "authorize">,
): Promise<Handshake> {
  const url = wsUrl(call.text(spec.url));
  const headers = spec.headers.map(([name, value]): [string, string] => [
    name,
    text(call.render(value)),
  ]);
  const jar = URL.canParse(url) ? call.cookies?.header(httpUrl(url)) : undefined;
  if (jar) addCookie(headers, jar);
  // The handshake is a GET: signatures and query keys are made for it as for an HTTP GET.
  const request: KindRequest = { method: "GET", url, headers };
  const authorized = call.authorize ? await call.authorize(request) : request;
  return { url: authorized.url, headers: authorized.headers };
}

/**
 * The http(s) URL a cookie jar knows a ws(s) URL by: the same host, path and
 * security (a `Secure` cookie goes to `wss://` as to `https://`).
 *
 * @example
 * ```ts
 * import { httpUrl } from "./handshake.ts";
 * if (httpUrl("wss://x.test/chat") !== "https://x.test/chat") throw new Error();
 * if (httpUrl("ws://x.test/") !== "http://x.test/") throw new Error();
 * ```
 */
export function httpUrl(url: string): string {
  return url.replace(/^ws(s?):/i, "http$1:");
}

/**
 * The ws(s) URL of an http(s) one (the same host, path and security), any
 * other text as it is: a step may name the API's own base URL, as the
 * handshake is an HTTP request to it, and one variable then serves both.
 *
 * @example
 * ```ts
 * import { wsUrl } from "./handshake.ts";
 * if (wsUrl("https://x.test/live") !== "wss://x.test/live") throw new Error();
 * if (wsUrl("ws://x.test/") !== "ws://x.test/") throw new Error();
 * ```
 */
export function wsUrl(url: string): string {
  return url.replace(/^http(s?):/i, "ws$1:");
}

/** The jar's cookies after any `cookie` the step wrote. */
function addCookie(headers: [string, string][], jar: string): void {
  const at = headers.findIndex(([name]) => name === "cookie");
  if (at < 0) headers.push(["cookie", jar]);
  else headers[at] = ["cookie", `${headers[at][1]}; ${jar}`];
}

function text(value: unknown): string {
  return typeof value === "string" ? value : JSON.stringify(value) ?? "";
}

/**
 * The `Proxy-Authorization` a proxy URL's `user:password@` asks for, shared by every path that
 * speaks to a proxy itself (an insecure HTTP request, a WebSocket's or an event stream's tunnel).
 *
 * @module
 */

/**
 * Basic credentials of a proxy URL's userinfo, its parts percent-decoded as the runtime's client
 * decodes them (a malformed escape kept as written, never an exception); `undefined` when the URL
 * has none.
 *
 * @example
 * ```ts
 * import { proxyAuthorization } from "./proxy_authorization.ts";
 * if (proxyAuthorization(new URL("http://ada:p%40ss@proxy:3128")) !== `Basic ${btoa("ada:p@ss")}`) {
 *   throw new Error();
 * }
 * if (proxyAuthorization(new URL("http://proxy:3128")) !== undefined) throw new Error();
 * // A malformed escape is sent as written, as the runtime's client sends it.
 * if (proxyAuthorization(new URL("http://ada:%E0@proxy")) !== `Basic ${btoa("ada:%E0")}`) {
 *   throw new Error();
 * }
 * ```
 */
export function proxyAuthorization(proxy: URL): string | undefined {
  if (proxy.username === "" && proxy.password === "") return undefined;
  const decode = (part: string) => {
    try {
      return decodeURIComponent(part);
    } catch {
      return part;
    }
  };
  const pair = new TextEncoder().encode(`${decode(proxy.username)}:${decode(proxy.password)}`);
  return `Basic ${btoa(String.fromCharCode(...pair))}`;
}

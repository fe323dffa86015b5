/**
 * What the `ws` client is given for one connection: the handshake headers,
 * the run's TLS settings (`--cacert`, `--cert`/`--key`, `--insecure`), the
 * bounds (`maxPayload` = `--max-body`, the handshake within the step's
 * timeout, no redirects), and the tunnel through the run's proxy.
 *
 * @module
 */
import type { KindCall } from "../kind.ts";
import { type CreateConnection, type TargetTls, tunnelThrough } from "./proxy.ts";
import type { ClientOptions } from "./socket.ts";

/**
 * The `ws` client's options for `url`: the handshake headers, the run's TLS
 * settings, the bounds, the proxy tunnel when one applies; a sentence when
 * the proxy is not one a WebSocket can go through.
 *
 * @example
 * ```ts
 * import { clientOptions } from "./client_options.ts";
 * const call = {
 *   network: () => ({ insecure: false, proxy: "socks5://127.0.0.1:1080" }),
 *   maxBodyBytes: 1024,
 *   timeoutMs: 1000,
 * };
 * const options = clientOptions("ws://x.test/", [], call);
 * if (typeof options !== "string" || !options.includes("socks5://")) throw new Error(String(options));
 * ```
 */
export function clientOptions(
  url: string,
  headers: [string, string][],
  call: Pick<KindCall, "network" | "maxBodyBytes" | "timeoutMs">,
): ClientOptions | string {
  const network = call.network(url);
  const extra = network.caCerts ?? [];
  const tls = {
    // Under Deno, `ca` is added to the system's roots (Node's would replace them), as for HTTP.
    ...(extra.length > 0 ? { ca: extra } : {}),
    ...(network.cert && network.key ? { cert: network.cert, key: network.key } : {}),
    rejectUnauthorized: !network.insecure,
  };
  const proxy = network.proxy === undefined ? undefined : proxied(network.proxy, url, tls);
  if (typeof proxy === "string") return proxy;
  return {
    headers: Object.fromEntries(headers),
    ...tls,
    maxPayload: call.maxBodyBytes,
    followRedirects: false,
    // The exchange's own deadline says it first, in its words; this one only frees the socket.
    handshakeTimeout: call.timeoutMs + 1_000,
    ...(proxy ? { createConnection: proxy } : {}),
  };
}

/** The tunnel through an `http://` or `https://` proxy; a sentence for another kind. */
function proxied(proxy: string, url: string, tls: TargetTls): CreateConnection | string {
  const parsed = URL.canParse(proxy) ? new URL(proxy) : undefined;
  if (parsed?.protocol !== "http:" && parsed?.protocol !== "https:") {
    return `A WebSocket step goes through an http:// or https:// proxy only, not "${
      redactedProxy(proxy)
    }"; set --no-proxy for its host to connect directly.`;
  }
  return tunnelThrough(parsed, url.toLowerCase().startsWith("wss:") ? tls : undefined);
}

/** A proxy URL without its password, for messages. */
function redactedProxy(proxy: string): string {
  return proxy.replace(/\/\/([^:@/]*):[^@/]*@/, "//$1:***@");
}

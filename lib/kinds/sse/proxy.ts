/**
 * How an event stream opened without certificate checks (`insecure.ts`)
 * reaches its server: directly, or through the run's `http://` proxy — a
 * `CONNECT host:port` tunnel for an https target (TLS to the target inside
 * it), the absolute-form request for an http one — with the proxy URL's
 * `user:password@` sent as `Proxy-Authorization: Basic`, never to the server.
 * The WebSocket kind has its own tunnel; kinds do not share folders, so this
 * one is the SSE step's.
 *
 * @module
 */
import http from "node:http";
import type https from "node:https";
import type { Socket } from "node:net";
import tls from "node:tls";
import { maskUserinfo } from "../../secrets/userinfo.ts";
import { proxyAuthorization } from "../../_util/proxy_authorization.ts";

/** Where a stream goes: its URL, host unbracketed, and port. */
export interface StreamTarget {
  url: URL;
  hostname: string;
  port: number;
}

/** How a stream's request is sent: its `node:http(s)` options, and the proxy's `host:port` when it goes through one. */
export interface Route {
  options: https.RequestOptions;
  proxy?: string;
}

/**
 * The way to `target`, through `proxy` when one applies; `headers` gains
 * `Host` and, in absolute form, the proxy's credentials. A CONNECT tunnel
 * is opened here, within `signal`.
 *
 * @example
 * ```ts
 * import { routeTo } from "./proxy.ts";
 * const url = new URL("http://api.test:8080/events?a=1");
 * const headers: Record<string, string> = {};
 * const target = { url, hostname: "api.test", port: 8080 };
 * const route = await routeTo(target, "http://u:p@proxy.test:3128", {}, headers, new AbortController().signal);
 * if (route.proxy !== "proxy.test:3128" || route.options.path !== url.href) throw new Error();
 * if (headers["proxy-authorization"] !== `Basic ${btoa("u:p")}` || headers.host !== "api.test:8080") throw new Error();
 * ```
 */
export async function routeTo(
  target: StreamTarget,
  proxy: string | undefined,
  tlsOptions: tls.ConnectionOptions,
  headers: Record<string, string>,
  signal: AbortSignal,
): Promise<Route> {
  const { url, hostname: host, port } = target;
  const direct = { host, port, path: url.pathname + url.search };
  if (!proxy) return { options: direct };
  const via = httpProxy(proxy);
  const authority = host.includes(":") ? `[${host}]:${port}` : `${host}:${port}`;
  if (!Object.keys(headers).some((name) => name.toLowerCase() === "host")) {
    headers.host = url.host;
  }
  if (url.protocol === "https:") {
    const socket = await tunnel(via, authority, signal).catch((error) => {
      throw signal.aborted ? error : unreachable(error, via.host);
    });
    // The tunnel outlives the request's own socket handling: the deadline or Ctrl-C closes it too.
    signal.addEventListener("abort", () => socket.destroy(), { once: true });
    const secure = () => tls.connect({ socket, ...tlsOptions, ...serverName(host) });
    return { options: { ...direct, createConnection: secure }, proxy: via.host };
  }
  const auth = proxyAuthorization(via);
  if (auth) headers["proxy-authorization"] = auth;
  const options = { host: unbracketed(via.hostname), port: portOf(via), path: url.href };
  return { options, proxy: via.host };
}

/**
 * The error of a request that went to the proxy `host`: one that never
 * connected names the proxy, since the address in it is the proxy's, not
 * the stream's; any other is left as it is.
 *
 * @example
 * ```ts
 * import { unreachable } from "./proxy.ts";
 * const refused = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:3128"), { syscall: "connect" });
 * const named = unreachable(refused, "127.0.0.1:3128") as Error;
 * if (named.message !== "the proxy 127.0.0.1:3128 could not be reached (connect ECONNREFUSED 127.0.0.1:3128)") throw new Error();
 * ```
 */
export function unreachable(error: unknown, host: string): unknown {
  const syscall = (error as { syscall?: unknown } | null)?.syscall;
  if (!(error instanceof Error) || (syscall !== "connect" && syscall !== "getaddrinfo")) {
    return error;
  }
  return new TypeError(`the proxy ${host} could not be reached (${error.message})`, {
    cause: error,
  });
}

/** The proxy as a URL, which must be an `http://` one: the sentence saying so otherwise. */
function httpProxy(proxy: string): URL {
  const url = URL.canParse(proxy) ? new URL(proxy) : undefined;
  if (url?.protocol === "http:") return url;
  throw new TypeError(
    `An sse step with --insecure goes through an http:// proxy only, not "${
      maskUserinfo(proxy, { proxy: true })
    }"; use an http:// proxy, or trust the server's CA with --cacert instead of --insecure`,
  );
}

/** A CONNECT tunnel to `authority` through `proxy`, given up when `signal` aborts. */
function tunnel(proxy: URL, authority: string, signal: AbortSignal): Promise<Socket> {
  const auth = proxyAuthorization(proxy);
  return new Promise<Socket>((resolve, reject) => {
    const request = http.request({
      host: unbracketed(proxy.hostname),
      port: portOf(proxy),
      method: "CONNECT",
      path: authority,
      headers: { host: authority, ...(auth ? { "proxy-authorization": auth } : {}) },
      signal,
      agent: false,
    });
    request.on("connect", (answer, socket) => {
      if (answer.statusCode === 200) return resolve(socket);
      socket.destroy();
      reject(
        new TypeError(
          `the proxy ${proxy.host} answered CONNECT ${authority} with ${answer.statusCode}`,
        ),
      );
    });
    request.on("error", reject);
    request.end();
  });
}

/** SNI for a host name; an IP address is not sent as one. */
function serverName(host: string): { servername?: string } {
  return /^[\d.]+$|:/.test(host) ? {} : { servername: host };
}

function portOf(proxy: URL): number {
  return Number(proxy.port || 80);
}

function unbracketed(host: string): string {
  return host.replace(/^\[|\]$/g, "");
}

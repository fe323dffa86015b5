/**
 * A WebSocket connection through an HTTP proxy: a `CONNECT host:port`
 * tunnel through the proxy (`http://`, or `https://` reached over TLS;
 * `user:password@` sent as `Proxy-Authorization: Basic`), then TLS to the
 * target inside it for `wss://`. Given to the `ws` client as its
 * `createConnection`, which may answer later through its callback.
 *
 * @module
 */
import type { Socket } from "node:net";
import { proxyAuthorization } from "../../_util/proxy_authorization.ts";

/** What `ws` asks a connection for, as far as the tunnel reads it. */
export interface ConnectionRequest {
  host: string;
  port: number | string;
}

/** The TLS settings for the target inside the tunnel (`wss://`). */
export interface TargetTls {
  ca?: string[];
  cert?: string;
  key?: string;
  rejectUnauthorized: boolean;
}

/** `ws`'s `createConnection`: the socket, or an error, through `done`. */
export type CreateConnection = (
  request: ConnectionRequest,
  done: (error: Error | null, socket?: Socket) => void,
) => undefined;

/** The proxy's answer head, byte for character (no module of Node's needed at start-up). */
const LATIN1 = new TextDecoder("latin1");

/** The most bytes of the proxy's answer to CONNECT read before giving up on it. */
const MAX_PROXY_HEAD = 16 * 1024;

/**
 * A `createConnection` that tunnels through `proxy` to the target; for a
 * `wss://` target (`tls` given), TLS is spoken to the target inside.
 *
 * @example
 * ```ts
 * import { tunnelThrough } from "./proxy.ts";
 * const create = tunnelThrough(new URL("http://127.0.0.1:3128"));
 * if (typeof create !== "function") throw new Error();
 * ```
 */
export function tunnelThrough(proxy: URL, tls?: TargetTls): CreateConnection {
  return (request, done) => {
    open(proxy, request, tls).then((socket) => done(null, socket), (error) => done(error));
    return undefined;
  };
}

async function open(proxy: URL, request: ConnectionRequest, tls?: TargetTls): Promise<Socket> {
  const net = await import("node:net");
  const tlsModule = await import("node:tls");
  const port = Number(proxy.port || (proxy.protocol === "https:" ? 443 : 80));
  const socket: Socket = proxy.protocol === "https:"
    ? tlsModule.connect({ host: proxy.hostname, port, servername: proxy.hostname })
    : net.connect({ host: proxy.hostname, port });
  await connected(socket, proxy.protocol === "https:" ? "secureConnect" : "connect");
  const target = `${bracketed(request.host)}:${request.port}`;
  socket.write(`CONNECT ${target} HTTP/1.1\r\nHost: ${target}\r\n${authorization(proxy)}\r\n`);
  const status = await answer(socket);
  if (status !== 200) {
    socket.destroy();
    throw new Error(`The proxy ${proxy.host} answered CONNECT ${target} with status ${status}`);
  }
  if (!tls) return socket;
  const secure = tlsModule.connect({
    socket,
    servername: net.isIP(request.host) ? undefined : request.host,
    ...tls,
  });
  await connected(secure, "secureConnect");
  return secure;
}

/** Resolves once `socket` emits `event`, rejects on its error or close. */
function connected(socket: Socket, event: string): Promise<void> {
  return new Promise((resolve, reject) => {
    socket.once(event, () => resolve());
    socket.once("error", reject);
    socket.once("close", () => reject(new Error("The proxy closed the connection")));
  });
}

/** The status of the proxy's answer to CONNECT, once its head has arrived. */
function answer(socket: Socket): Promise<number> {
  return new Promise((resolve, reject) => {
    let head = "";
    const onData = (chunk: Uint8Array) => {
      head += LATIN1.decode(chunk);
      const end = head.indexOf("\r\n\r\n");
      if (end < 0 && head.length <= MAX_PROXY_HEAD) return;
      socket.off("data", onData);
      // Anything after the head belongs to the tunnel: a proxy sends nothing before we speak.
      if (end < 0) return reject(new Error("The proxy's answer to CONNECT has no end"));
      resolve(Number(/^HTTP\/1\.[01] (\d{3})/.exec(head)?.[1] ?? 0));
    };
    socket.on("data", onData);
    socket.once("error", reject);
  });
}

function authorization(proxy: URL): string {
  const credentials = proxyAuthorization(proxy);
  return credentials ? `Proxy-Authorization: ${credentials}\r\n` : "";
}

function bracketed(host: string): string {
  return host.includes(":") && !host.startsWith("[") ? `[${host}]` : host;
}

/**
 * Sending without checking the server's certificate (`--insecure`). The
 * runtime's `fetch` cannot skip certificate checks per request, so these
 * requests go through `node:https` with `rejectUnauthorized: false`, and
 * come back as a web `Response` the rest of the runner reads as usual:
 * bodies decompressed, a plain-HTTP proxy reached with CONNECT, a client
 * certificate presented when given.
 *
 * @module
 */
import http from "node:http";
import https from "node:https";
import tls from "node:tls";
import zlib from "node:zlib";
import type { Readable, Transform } from "node:stream";
import { proxyAuthorization } from "../_util/proxy_authorization.ts";

/**
 * How an insecure request reaches the server: a proxy, a client certificate.
 *
 * @example
 * ```ts
 * import type { InsecureVia } from "./insecure.ts";
 * const via: InsecureVia = { proxy: "http://proxy.test:3128" };
 * if (!via.proxy?.startsWith("http://")) throw new Error();
 * ```
 */
export interface InsecureVia {
  /** An `http://` proxy (CONNECT for HTTPS targets, absolute-form for HTTP ones). */
  proxy?: string;
  /** A PEM client certificate and its key. */
  cert?: string;
  /** The client certificate's PEM key. */
  key?: string;
}

/**
 * Like `fetch(request)` with `redirect: "manual"`, without verifying TLS
 * certificates (the caller follows redirects).
 *
 * @example
 * ```ts
 * import { insecureFetch } from "./insecure.ts";
 * const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, () => new Response("hi"));
 * const response = await insecureFetch(new Request(`http://127.0.0.1:${server.addr.port}/`), {});
 * if ((await response.text()) !== "hi") throw new Error();
 * await server.shutdown();
 * ```
 */
export async function insecureFetch(request: Request, via: InsecureVia): Promise<Response> {
  const body = request.body ? new Uint8Array(await request.arrayBuffer()) : undefined;
  const headers = new Headers(request.headers);
  if (!headers.has("accept-encoding")) headers.set("accept-encoding", "gzip, deflate, br");
  const response = await once(
    new URL(request.url),
    request.method,
    headers,
    body,
    request.signal,
    via,
  );
  Object.defineProperty(response, "url", { value: request.url });
  return response;
}

/** One request and its response head, the body left to stream. */
async function once(
  url: URL,
  method: string,
  headers: Headers,
  body: Uint8Array | undefined,
  signal: AbortSignal,
  via: InsecureVia,
): Promise<Response> {
  const secure = url.protocol === "https:";
  const target = {
    url,
    hostname: url.hostname.replace(/^\[|\]$/g, ""),
    port: Number(url.port || (secure ? 443 : 80)),
  };
  const tlsOptions = tlsFor(target.hostname, via);
  const head = headFrom(headers, body);
  const options: https.RequestOptions = {
    method,
    headers: head,
    signal,
    agent: false,
    ...tlsOptions,
  };
  Object.assign(options, await routeFor(target, proxyOf(via), secure, tlsOptions, head, signal));
  const response = await new Promise<http.IncomingMessage>((resolve, reject) => {
    const req = (secure ? https : http).request(options, resolve);
    req.on("error", reject);
    req.end(body);
  });
  return toResponse(response);
}

/** Where a request goes: its host, unbracketed, and port. */
interface Target {
  url: URL;
  hostname: string;
  port: number;
}

/** The proxy to go through, which must be an `http://` one. */
function proxyOf(via: InsecureVia): URL | undefined {
  const proxy = via.proxy ? new URL(via.proxy) : undefined;
  if (proxy && proxy.protocol !== "http:") {
    throw new TypeError(
      `--insecure reaches servers through http:// proxies only, not "${proxy.protocol}//"`,
    );
  }
  return proxy;
}

/** TLS without verification: no roots, the server name unless an IP, the client certificate. */
function tlsFor(hostname: string, via: InsecureVia): tls.ConnectionOptions {
  return {
    rejectUnauthorized: false,
    // Nothing is verified, so no roots are needed; loading the system's would need --allow-sys.
    ca: [],
    ...(/^[\d.]+$|:/.test(hostname) ? {} : { servername: hostname }),
    ...(via.cert && via.key ? { cert: via.cert, key: via.key } : {}),
  };
}

/** The request's headers as node sends them, with the body's length. */
function headFrom(headers: Headers, body: Uint8Array | undefined): Record<string, string> {
  const head: Record<string, string> = {};
  for (const [name, value] of headers) {
    if (name === "set-cookie") continue;
    head[name] = value;
  }
  if (body) head["content-length"] = String(body.byteLength);
  return head;
}

/**
 * How the request reaches its target: straight, through a CONNECT tunnel (an
 * https target behind a proxy), or in absolute form to the proxy (an http
 * target), which then gets the proxy's credentials in `head`.
 */
async function routeFor(
  target: Target,
  proxy: URL | undefined,
  secure: boolean,
  tlsOptions: tls.ConnectionOptions,
  head: Record<string, string>,
  signal: AbortSignal,
): Promise<https.RequestOptions> {
  const { url, hostname: host, port } = target;
  const direct = { host, port, path: url.pathname + url.search };
  if (!proxy) return direct;
  if (secure) {
    const socket = await tunnel(proxy, host, port, signal);
    return { ...direct, createConnection: () => tls.connect({ socket, ...tlsOptions }) };
  }
  const auth = proxyAuthorization(proxy);
  if (auth) head["proxy-authorization"] = auth;
  return { host: proxy.hostname, port: Number(proxy.port || 80), path: url.href };
}

/** A CONNECT tunnel to `host:port` through an HTTP proxy. */
function tunnel(proxy: URL, host: string, port: number, signal: AbortSignal) {
  const auth = proxyAuthorization(proxy);
  const credentials = auth ? { "proxy-authorization": auth } : {};
  return new Promise<import("node:net").Socket>((resolve, reject) => {
    const authority = host.includes(":") ? `[${host}]:${port}` : `${host}:${port}`;
    const req = http.request({
      host: proxy.hostname,
      port: Number(proxy.port || 80),
      method: "CONNECT",
      path: authority,
      headers: { host: authority, ...credentials },
      signal,
      agent: false,
    });
    req.on("connect", (res, socket) => {
      if (res.statusCode === 200) resolve(socket);
      else {
        socket.destroy();
        reject(new TypeError(`the proxy answered CONNECT with ${res.statusCode}`));
      }
    });
    req.on("error", reject);
    req.end();
  });
}

/** A node response as a web one, its body decompressed like fetch does. */
function toResponse(message: http.IncomingMessage): Response {
  const headers = new Headers();
  const raw = message.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) headers.append(raw[i], raw[i + 1]);
  const status = message.statusCode ?? 0;
  if ([204, 205, 304].includes(status) || status < 200 || status > 599) {
    message.resume();
    return new Response(null, { status: status >= 200 && status <= 599 ? status : 502, headers });
  }
  const encoding = (headers.get("content-encoding") ?? "").trim().toLowerCase();
  const decoder = Object.hasOwn(DECODERS, encoding) ? DECODERS[encoding]() : undefined;
  const source: Readable = decoder ? message.pipe(decoder) : message;
  if (decoder) message.on("error", (error) => decoder.destroy(error));
  const body = pulledBody(source, () => {
    message.destroy();
    decoder?.destroy();
  });
  return new Response(body, { status, statusText: message.statusMessage ?? "", headers });
}

/** The decompressors of the content encodings fetch decodes. */
const DECODERS: Record<string, () => Transform> = {
  gzip: () => zlib.createGunzip(),
  "x-gzip": () => zlib.createGunzip(),
  deflate: () => zlib.createInflate(),
  br: () => zlib.createBrotliDecompress(),
};

/**
 * A node stream as a web one, pulled, not pushed: a body past the reader's
 * cap (a gzip bomb) is never buffered whole.
 */
function pulledBody(source: Readable, destroy: () => void): ReadableStream<Uint8Array> {
  let done = false;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      source.on("data", (chunk: Uint8Array) => {
        if (done) return;
        controller.enqueue(new Uint8Array(chunk));
        if ((controller.desiredSize ?? 0) <= 0) source.pause();
      });
      source.on("end", () => {
        if (!done) controller.close();
        done = true;
      });
      source.on("error", (error) => {
        if (!done) controller.error(error);
        done = true;
      });
    },
    pull() {
      source.resume();
    },
    cancel() {
      done = true;
      destroy();
    },
  });
}

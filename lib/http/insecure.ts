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
import type { Readable } from "node:stream";

/** How an insecure request reaches the server: a proxy, a client certificate. */
export interface InsecureVia {
  /** An `http://` proxy (CONNECT for HTTPS targets, absolute-form for HTTP ones). */
  proxy?: string;
  /** A PEM client certificate and its key. */
  cert?: string;
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
  const port = Number(url.port || (secure ? 443 : 80));
  const hostname = url.hostname.replace(/^\[|\]$/g, "");
  const proxy = via.proxy ? new URL(via.proxy) : undefined;
  if (proxy && proxy.protocol !== "http:") {
    throw new TypeError(
      `--insecure reaches servers through http:// proxies only, not "${proxy.protocol}//"`,
    );
  }
  const tlsOptions = {
    rejectUnauthorized: false,
    // Nothing is verified, so no roots are needed; loading the system's would need --allow-sys.
    ca: [],
    ...(/^[\d.]+$|:/.test(hostname) ? {} : { servername: hostname }),
    ...(via.cert && via.key ? { cert: via.cert, key: via.key } : {}),
  };
  const head: Record<string, string | string[]> = {};
  for (const [name, value] of headers) {
    if (name === "set-cookie") continue;
    head[name] = value;
  }
  if (body) head["content-length"] = String(body.byteLength);
  const options: https.RequestOptions = {
    method,
    headers: head,
    signal,
    agent: false,
    ...tlsOptions,
  };
  if (secure && proxy) {
    const socket = await tunnel(proxy, hostname, port, signal);
    options.createConnection = () => tls.connect({ socket, ...tlsOptions });
    Object.assign(options, { host: hostname, port, path: url.pathname + url.search });
  } else if (proxy) {
    Object.assign(options, {
      host: proxy.hostname,
      port: Number(proxy.port || 80),
      path: url.href,
    });
    const auth = proxyAuthorization(proxy);
    if (auth) head["proxy-authorization"] = auth;
  } else {
    Object.assign(options, { host: hostname, port, path: url.pathname + url.search });
  }
  const response = await new Promise<http.IncomingMessage>((resolve, reject) => {
    const req = (secure ? https : http).request(options, resolve);
    req.on("error", reject);
    req.end(body);
  });
  return toResponse(response);
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

/**
 * The `Proxy-Authorization` a proxy URL's userinfo asks for (Basic, its
 * parts percent-decoded as the runtime's client decodes them), if any.
 */
function proxyAuthorization(proxy: URL): string | undefined {
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
  const decoder = encoding === "gzip" || encoding === "x-gzip"
    ? zlib.createGunzip()
    : encoding === "deflate"
    ? zlib.createInflate()
    : encoding === "br"
    ? zlib.createBrotliDecompress()
    : undefined;
  const source: Readable = decoder ? message.pipe(decoder) : message;
  if (decoder) message.on("error", (error) => decoder.destroy(error));
  // Pulled, not pushed: a body past the reader's cap (a gzip bomb) is never buffered whole.
  let done = false;
  const body = new ReadableStream<Uint8Array>({
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
      message.destroy();
      decoder?.destroy();
    },
  });
  return new Response(body, { status, statusText: message.statusMessage ?? "", headers });
}

/**
 * An event stream opened without checking the server's certificate
 * (`--insecure`): the runtime's `fetch` cannot skip the check per request,
 * so this connection goes through `node:https` with `rejectUnauthorized:
 * false` and comes back as a web `Response` whose body streams as it
 * arrives. The run's `http://` proxy is reached as `proxy.ts` says: a
 * CONNECT tunnel for https, the absolute form for http.
 *
 * @module
 */
import http from "node:http";
import https from "node:https";
import type { KindNetwork } from "../kind.ts";
import { routeTo, unreachable } from "./proxy.ts";
import type { SseRequest } from "./request.ts";

/**
 * Like `fetch(request)`, without verifying the certificate.
 *
 * @example
 * ```ts
 * import { insecureStream } from "./insecure.ts";
 * const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, () => new Response("data: 1\n\n"));
 * const url = `http://127.0.0.1:${server.addr.port}/`;
 * const response = await insecureStream({ method: "GET", url, headers: [] }, { insecure: true }, new AbortController().signal);
 * if ((await response.text()) !== "data: 1\n\n") throw new Error();
 * await server.shutdown();
 * ```
 */
export async function insecureStream(
  request: SseRequest,
  network: KindNetwork,
  signal: AbortSignal,
): Promise<Response> {
  const url = new URL(request.url);
  const secure = url.protocol === "https:";
  const headers: Record<string, string> = Object.fromEntries(request.headers);
  if (request.body !== undefined) {
    headers["content-length"] = String(new TextEncoder().encode(request.body).byteLength);
  }
  const tlsOptions = {
    rejectUnauthorized: false,
    // Nothing is verified, so no roots are needed; loading the system's would need --allow-sys.
    ca: [],
    ...(network.cert && network.key ? { cert: network.cert, key: network.key } : {}),
  };
  const target = {
    url,
    hostname: url.hostname.replace(/^\[|\]$/g, ""),
    port: Number(url.port || (secure ? 443 : 80)),
  };
  const route = await routeTo(target, network.proxy, tlsOptions, headers, signal);
  const options: https.RequestOptions = {
    method: request.method,
    headers,
    signal,
    agent: false,
    ...tlsOptions,
    ...route.options,
  };
  return await new Promise<Response>((resolve, reject) => {
    const req = (secure ? https : http).request(options, (message) => resolve(toResponse(message)));
    req.on("error", (error) => reject(route.proxy ? unreachable(error, route.proxy) : error));
    req.end(request.body);
  });
}

/** A node response as a web one, its body pulled as the reader asks. */
function toResponse(message: http.IncomingMessage): Response {
  const headers = new Headers();
  const raw = message.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) headers.append(raw[i], raw[i + 1]);
  const status = message.statusCode ?? 502;
  if ([204, 205, 304].includes(status) || status < 200 || status > 599) {
    message.resume();
    return new Response(null, { status: status >= 200 && status <= 599 ? status : 502, headers });
  }
  let done = false;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      message.on("data", (chunk: Uint8Array) => {
        if (done) return;
        controller.enqueue(new Uint8Array(chunk));
        if ((controller.desiredSize ?? 0) <= 0) message.pause();
      });
      message.on("end", () => {
        if (!done) controller.close();
        done = true;
      });
      message.on("error", (error) => {
        if (!done) controller.error(error);
        done = true;
      });
    },
    pull() {
      message.resume();
    },
    cancel() {
      done = true;
      message.destroy();
    },
  });
  return new Response(body, { status, headers });
}

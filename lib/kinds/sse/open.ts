/**
 * Opens one connection of an event stream with the run's network settings:
 * `fetch` with a client holding the CAs, client certificate and proxy
 * (`--cacert`, `--cert`, `--proxy`); `--insecure` through `node:https`
 * (`insecure.ts`), since the runtime's `fetch` cannot skip certificate
 * checks per request.
 *
 * @module
 */
import { httpClient } from "../../io/http_client.ts";
import type { KindNetwork } from "../kind.ts";
import type { SseRequest } from "./request.ts";

/**
 * The response head of `request`, its body left to stream; rejects like
 * `fetch` (a network error, or `signal`'s reason when aborted).
 *
 * @example
 * ```ts
 * import { openStream } from "./open.ts";
 * const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, () => new Response("data: 1\n\n"));
 * const url = `http://127.0.0.1:${server.addr.port}/`;
 * const response = await openStream({ method: "GET", url, headers: [] }, { insecure: false }, new AbortController().signal);
 * if ((await response.text()) !== "data: 1\n\n") throw new Error();
 * await server.shutdown();
 * ```
 */
export async function openStream(
  request: SseRequest,
  network: KindNetwork,
  signal: AbortSignal,
): Promise<Response> {
  if (network.insecure) {
    const { insecureStream } = await import("./insecure.ts");
    return insecureStream(request, network, signal);
  }
  const { caCerts, cert, key, proxy } = network;
  const client = caCerts || (cert && key) || proxy
    ? httpClient({ caCerts, cert, key, proxy })
    : undefined;
  return await fetch(request.url, {
    method: request.method,
    headers: request.headers,
    body: request.body,
    signal,
    ...(client ? { client } : {}),
  });
}

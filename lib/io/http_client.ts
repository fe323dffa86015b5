/**
 * The HTTP clients `fetch` is given: extra trusted CAs, a client
 * certificate, a proxy, one client per distinct set for the process. Deno
 * API family: `Deno.createHttpClient`.
 *
 * @module
 */

/** How requests reach a server: extra trusted CAs, a client certificate, a proxy. */
export interface ClientOptions {
  /** PEM certificates trusted besides the system's. */
  caCerts?: string[];
  /** A PEM client certificate and its key, for servers that require one (mutual TLS). */
  cert?: string;
  /** The PEM private key of `cert`. */
  key?: string;
  /** An `http://`, `https://` or `socks5://` proxy URL. */
  proxy?: string;
}

const clients = new Map<string, Deno.HttpClient>();

/**
 * A proxy URL as a URL parser reads it (RFC 3986, WHATWG): the runtime
 * refuses a space, `"` or a non-ASCII letter in a password, and splits
 * `user:pa@ss@host` at the first `@`, sending `pa`. Percent-encoded as the
 * parser does, the password arrives whole, decoded, in `Proxy-Authorization`.
 */
function proxyUrl(url: string): string {
  try {
    return new URL(url).href;
  } catch {
    return url;
  }
}

function createClient(options: ClientOptions): Deno.HttpClient {
  return Deno.createHttpClient({
    ...(options.caCerts ? { caCerts: options.caCerts } : {}),
    ...(options.cert && options.key ? { cert: options.cert, key: options.key } : {}),
    ...(options.proxy ? { proxy: { url: proxyUrl(options.proxy) } } : {}),
  });
}

/**
 * An HTTP client for `fetch` (its `client` option) with these options,
 * made once per distinct set and kept for the process.
 *
 * @example
 * ```ts
 * import { closeHttpClients, httpClient } from "./http_client.ts";
 * const a = httpClient({ proxy: "http://127.0.0.1:3128" });
 * if (a !== httpClient({ proxy: "http://127.0.0.1:3128" })) throw new Error("one client per set");
 * closeHttpClients();
 * ```
 */
export function httpClient(options: ClientOptions): Deno.HttpClient {
  const key = JSON.stringify([options.caCerts, options.cert, options.key, options.proxy]);
  let client = clients.get(key);
  if (!client) {
    client = createClient(options);
    clients.set(key, client);
  }
  return client;
}

/**
 * Builds a client with these options and closes it at once: the runtime's
 * error when it refuses them (a certificate it cannot decode, a key that is
 * not the certificate's, a proxy URL it cannot use), else `undefined`. The
 * run asks before it sends anything, so no request meets that error.
 *
 * @example
 * ```ts
 * import { httpClientError } from "./http_client.ts";
 * if (httpClientError({ proxy: "http://127.0.0.1:3128" }) !== undefined) throw new Error();
 * if (!httpClientError({ proxy: "http://127.0.0.1:99999" })) throw new Error("a port past 65535");
 * ```
 */
export function httpClientError(options: ClientOptions): Error | undefined {
  try {
    createClient(options).close();
    return undefined;
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  }
}

/**
 * Closes the clients {@linkcode httpClient} made (at the end of a run).
 *
 * @example
 * ```ts
 * import { closeHttpClients } from "./http_client.ts";
 * closeHttpClients();
 * ```
 */
export function closeHttpClients(): void {
  for (const client of clients.values()) client.close();
  clients.clear();
}

/**
 * A recording reverse proxy for the Postman tests of tests/real/: it stands
 * where the user's server stands (one origin that the collection names),
 * forwards each request to the instance it is pointed at, and records what
 * that instance received (method, path with query, body) and answered, in
 * order. Newman
 * and flowrun then run the same collection against the same origin, each
 * with a fresh instance behind it.
 *
 * @module
 */

/** One request the instance behind the proxy received. */
export interface Received {
  method: string;
  /** The path with its query, as sent (`/todos/%3Cnumber%3E?filter=`). */
  target: string;
  /** The body as text ("" when none). */
  body: string;
  /** The status the instance answered. */
  status: number;
  /** The body it answered, as text. */
  answer: string;
}

/** A running recording proxy. */
export interface RecordingProxy {
  /** `http://127.0.0.1:PORT`, no trailing slash. */
  origin: string;
  /** Points the proxy at `upstream` and starts a new recording. */
  point(upstream: string): void;
  /** What the instance received since the last {@linkcode RecordingProxy.point}. */
  received(): Received[];
  /** Stops the proxy. */
  close(): Promise<void>;
}

/** Headers that describe one hop, not the message; fetch sets its own. */
const HOP = ["connection", "keep-alive", "transfer-encoding", "content-length", "host"];

/**
 * Starts a proxy on 127.0.0.1 with a port the system picks; until it is
 * pointed at an instance it answers 502.
 *
 * @example
 * ```ts
 * import { startRecordingProxy } from "./postman_proxy.ts";
 * const proxy = startRecordingProxy();
 * await proxy.close();
 * ```
 */
export function startRecordingProxy(): RecordingProxy {
  let upstream = "";
  let log: Received[] = [];
  const client = unpooled();
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    async (request) => {
      const url = new URL(request.url);
      const target = url.pathname + url.search;
      const body = request.body ? new Uint8Array(await request.arrayBuffer()) : undefined;
      const entry: Received = {
        method: request.method,
        target,
        body: body ? new TextDecoder().decode(body) : "",
        status: 0,
        answer: "",
      };
      log.push(entry);
      if (!upstream) return new Response("the proxy points nowhere", { status: 502 });
      const headers = new Headers(request.headers);
      for (const name of HOP) headers.delete(name);
      const init: RequestInit = {
        method: request.method,
        headers,
        body: body && body.length > 0 ? body : undefined,
        redirect: "manual",
      };
      let answer: Response;
      try {
        answer = await forward(client, upstream + target, init);
      } catch (error) {
        // Kept for the test's message: why this request has no status.
        entry.answer = `the proxy could not reach the instance: ${(error as Error).message}`;
        return new Response(entry.answer, { status: 502 });
      }
      entry.status = answer.status;
      const out = new Headers(answer.headers);
      // fetch has decoded the body already.
      for (const name of [...HOP, "content-encoding"]) out.delete(name);
      const bytes = new Uint8Array(await answer.arrayBuffer());
      entry.answer = new TextDecoder().decode(bytes);
      const empty = answer.status === 204 || answer.status === 304 || request.method === "HEAD";
      return new Response(empty ? null : bytes, { status: answer.status, headers: out });
    },
  );
  const { port } = server.addr as Deno.NetAddr;
  return {
    origin: `http://127.0.0.1:${port}`,
    point(to) {
      upstream = to;
      log = [];
    },
    received: () => [...log],
    close: async () => {
      await server.shutdown();
      client.close();
    },
  };
}

/**
 * No connection of the proxy's is kept for reuse: every request opens its own. A pooled
 * keep-alive connection the server closed as it was reused (a race a loaded machine widens; CI
 * twice saw WireMock's /__admin/health recorded with no status, once after a retry on the same
 * pool, which the harness's readiness probe shares in this process) is the proxy's hop, not a
 * difference between the clients compared.
 */
function unpooled(): Deno.HttpClient {
  return Deno.createHttpClient({ poolMaxIdlePerHost: 0 });
}

/** The upstream's answer; a GET or HEAD whose connection failed is sent again (at most 3 times). */
async function forward(
  client: Deno.HttpClient,
  url: string,
  init: RequestInit,
): Promise<Response> {
  for (let attempt = 1;; attempt++) {
    try {
      return await fetch(url, { ...init, client } as RequestInit);
    } catch (error) {
      if ((init.method !== "GET" && init.method !== "HEAD") || attempt === 3) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100 * attempt));
    }
  }
}

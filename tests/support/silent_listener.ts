/**
 * A listener on 127.0.0.1 that takes every connection and never answers: what a test of a
 * timeout (a request, an event stream, a WebSocket handshake) waits on.
 *
 * @module
 */

/** What {@linkcode silentListener} gives. */
export interface SilentListener {
  /** `127.0.0.1:PORT`, to write after a scheme (or bare, where a flow adds its own). */
  host: string;
  port: number;
  /** Every connection taken so far, each held open (unanswered) until `close`. */
  held: Deno.Conn[];
  /** Stops listening and closes every connection it holds. */
  close(): void;
}

/**
 * Listens on a free port of 127.0.0.1 and holds every connection it takes without a byte back,
 * so the client's own timeout is what ends its wait.
 *
 * @example
 * ```ts
 * import { silentListener } from "./silent_listener.ts";
 * const silent = silentListener();
 * const conn = await Deno.connect({ hostname: "127.0.0.1", port: silent.port });
 * for (let i = 0; i < 100 && silent.held.length === 0; i++) {
 *   await new Promise((done) => setTimeout(done, 10));
 * }
 * conn.close();
 * silent.close();
 * if (silent.held.length !== 1 || silent.host !== `127.0.0.1:${silent.port}`) throw new Error();
 * ```
 */
export function silentListener(): SilentListener {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const held: Deno.Conn[] = [];
  (async () => {
    for await (const conn of listener) held.push(conn);
  })().catch(() => {});
  const { port } = listener.addr as Deno.NetAddr;
  return {
    host: `127.0.0.1:${port}`,
    port,
    held,
    close: () => {
      listener.close();
      for (const conn of held) conn.close();
    },
  };
}

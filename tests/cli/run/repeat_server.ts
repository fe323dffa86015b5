/**
 * A bare HTTP/1.1 server on 127.0.0.1 for the `--repeat` tests, on raw TCP
 * so that it can also drop a connection without an answer or never answer:
 * it counts the requests of each path, the requests in flight and their
 * most at once, and answers request k of a path as `answer(path, k)` says.
 */

/** How the server answers one request. */
export type Answer =
  | { status: number; body?: string; delayMs?: number; wait?: Promise<unknown> }
  /** The connection closed in the middle of the answer's body. */
  | { drop: true }
  | { hang: true };

/** A running server: its port, what it counted, and how to stop it. */
export interface RepeatServer {
  port: number;
  /** Requests of each path so far. */
  counts: Map<string, number>;
  /** Requests so far, all paths. */
  total(): number;
  /** The most requests in flight at once. */
  maxInFlight(): number;
  /** Resolves once `n` requests have arrived. */
  reached(n: number): Promise<void>;
  close(): Promise<void>;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Starts the server; `answer` is called with the path and the request's number on that path (from 1). */
export function repeatServer(answer: (path: string, k: number) => Answer): RepeatServer {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const counts = new Map<string, number>();
  const conns = new Set<Deno.Conn>();
  const waiters: { n: number; resolve: () => void }[] = [];
  let total = 0, inFlight = 0, most = 0;
  const arrived = () => {
    total++;
    inFlight++;
    most = Math.max(most, inFlight);
    for (const w of waiters.filter((w) => total >= w.n)) w.resolve();
  };
  const serve = async (conn: Deno.Conn) => {
    conns.add(conn);
    let pending = "";
    const buf = new Uint8Array(16 * 1024);
    let open = true;
    try {
      while (open) {
        const end = pending.indexOf("\r\n\r\n");
        if (end < 0) {
          const n = await conn.read(buf);
          if (n === null) break;
          pending += decoder.decode(buf.subarray(0, n));
          continue;
        }
        const head = pending.slice(0, end);
        pending = pending.slice(end + 4);
        const path = head.split(" ")[1] ?? "/";
        const k = (counts.get(path) ?? 0) + 1;
        counts.set(path, k);
        arrived();
        open = await respond(conn, answer(path, k));
        inFlight--;
      }
    } catch {
      // The client went away.
    } finally {
      conns.delete(conn);
      try {
        conn.close();
      } catch {
        // Closed already.
      }
    }
  };
  (async () => {
    for await (const conn of listener) void serve(conn);
  })().catch(() => {});
  return {
    port: (listener.addr as Deno.NetAddr).port,
    counts,
    total: () => total,
    maxInFlight: () => most,
    reached: (n) =>
      total >= n ? Promise.resolve() : new Promise((resolve) => waiters.push({ n, resolve })),
    async close() {
      listener.close();
      for (const conn of conns) {
        try {
          conn.close();
        } catch {
          // Closed already.
        }
      }
      await new Promise((r) => setTimeout(r, 0));
    },
  };
}

/** Writes the answer; false when the connection is to end (dropped, or held until the client gives up). */
async function respond(conn: Deno.Conn, answer: Answer): Promise<boolean> {
  if ("drop" in answer) {
    // Cut mid-body: a client may send a request again on a new connection when a reused one closes
    // before any answer, never once the answer has begun.
    const cut = "HTTP/1.1 200 X\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{";
    await conn.write(encoder.encode(cut));
    return false;
  }
  if ("hang" in answer) {
    // Never answered: the read ends when the client gives up (its --timeout) and closes.
    const buf = new Uint8Array(1024);
    while (await conn.read(buf) !== null) { /* ignore */ }
    return false;
  }
  if (answer.wait) await answer.wait;
  if (answer.delayMs) await new Promise((r) => setTimeout(r, answer.delayMs));
  const body = encoder.encode(answer.body ?? "{}");
  const head = `HTTP/1.1 ${answer.status} X\r\ncontent-type: application/json\r\n` +
    `content-length: ${body.length}\r\n\r\n`;
  const bytes = new Uint8Array([...encoder.encode(head), ...body]);
  for (let at = 0; at < bytes.length;) at += await conn.write(bytes.subarray(at));
  return true;
}

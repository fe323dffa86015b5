/**
 * A forward proxy on 127.0.0.1 for the `sse:` step's proxy tests: CONNECT
 * tunnels (https targets) and absolute-form requests (http targets), each
 * request head recorded; optionally it requires a Basic credential
 * (`Proxy-Authorization`, else 407), or never answers (`silent`).
 */

/** A running proxy: its URL, the request heads it saw, a promise for the first, and how to stop it. */
export interface RecordingProxy {
  url: string;
  port: number;
  heads: string[];
  /** Resolves once a request head has arrived (the run is waiting on the proxy). */
  asked: Promise<void>;
  close(): void;
}

const encoder = new TextEncoder();

/** Starts the proxy; `basic` is the `user:password` it requires, `silent` keeps it from answering. */
export function recordingProxy(
  options: { basic?: string; silent?: boolean } = {},
): RecordingProxy {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const heads: string[] = [];
  const conns = new Set<Deno.Conn>();
  let asked: () => void = () => {};
  const first = new Promise<void>((resolve) => asked = resolve);
  (async () => {
    for await (const conn of listener) {
      conns.add(conn);
      handle(conn, conns, options, (head) => {
        heads.push(head);
        asked();
      }).catch(() => {}).finally(() => {
        if (!options.silent) closeQuietly(conn);
      });
    }
  })().catch(() => {});
  const port = (listener.addr as Deno.NetAddr).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    heads,
    asked: first,
    close: () => {
      listener.close();
      for (const conn of conns) closeQuietly(conn);
    },
  };
}

async function handle(
  conn: Deno.Conn,
  conns: Set<Deno.Conn>,
  options: { basic?: string; silent?: boolean },
  record: (head: string) => void,
): Promise<void> {
  const got = await readHead(conn);
  if (!got) return;
  const { head, rest } = got;
  record(head);
  if (options.silent) return;
  const [method, target] = head.split(" ");
  const auth = /^proxy-authorization:\s*(.+)$/im.exec(head)?.[1]?.trim();
  if (options.basic !== undefined && auth !== `Basic ${btoa(options.basic)}`) {
    await conn.write(encoder.encode(
      'HTTP/1.1 407 Proxy Authentication Required\r\nproxy-authenticate: Basic realm="p"\r\n' +
        "content-length: 0\r\nconnection: close\r\n\r\n",
    ));
    return;
  }
  const url = new URL(method === "CONNECT" ? `http://${target}` : target);
  const upstream = await Deno.connect({ hostname: url.hostname, port: Number(url.port || 80) });
  conns.add(upstream);
  if (method === "CONNECT") {
    await conn.write(encoder.encode("HTTP/1.1 200 Connection Established\r\n\r\n"));
  } else {
    // Origin-form to the server, without the proxy's own header, one request per connection.
    const lines = head.split("\r\n").slice(1)
      .filter((line) => !/^(proxy-authorization|connection):/i.test(line));
    const origin = `${method} ${url.pathname}${url.search} HTTP/1.1`;
    await upstream.write(
      encoder.encode([origin, ...lines, "connection: close", "", ""].join("\r\n")),
    );
  }
  if (rest.length > 0) await upstream.write(rest);
  await Promise.all([pipe(conn, upstream), pipe(upstream, conn)]);
  closeQuietly(upstream);
}

/** The request head (at most 16 KiB) and the bytes after it, or undefined when the client left. */
async function readHead(conn: Deno.Conn): Promise<{ head: string; rest: Uint8Array } | undefined> {
  const buffer = new Uint8Array(16 * 1024);
  let length = 0;
  while (length < buffer.length) {
    const n = await conn.read(buffer.subarray(length));
    if (n === null) return undefined;
    length += n;
    const text = new TextDecoder("latin1").decode(buffer.subarray(0, length));
    const end = text.indexOf("\r\n\r\n");
    if (end >= 0) return { head: text.slice(0, end), rest: buffer.slice(end + 4, length) };
  }
  return undefined;
}

async function pipe(from: Deno.Conn, to: Deno.Conn): Promise<void> {
  const buffer = new Uint8Array(16 * 1024);
  try {
    for (;;) {
      const n = await from.read(buffer);
      if (n === null) break;
      await to.write(buffer.subarray(0, n));
    }
  } catch {
    // One side closed: the tunnel ends.
  }
  try {
    await (to as Deno.TcpConn).closeWrite();
  } catch {
    // Already closed.
  }
}

function closeQuietly(conn: Deno.Conn): void {
  try {
    conn.close();
  } catch {
    // Already closed.
  }
}

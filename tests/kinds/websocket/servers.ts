/**
 * WebSocket servers for the websocket step's tests, each on 127.0.0.1 with
 * an ephemeral port, stopped by the test: the `ws` package's
 * `WebSocketServer` (a real server nobody here wrote) and Deno's own
 * (`Deno.upgradeWebSocket` in `Deno.serve`), both speaking the same small
 * chat protocol, plus a few that misbehave.
 *
 * The chat (`/chat`): the handshake needs `authorization: Bearer <TOKEN>`
 * (else 401 with a JSON body); `chat.v1` is chosen when offered; the server
 * says `{type: welcome, ticket: <TICKET>}`, answers each text message with
 * `{type: echo, got: <it, parsed when JSON>}` and each binary one with the
 * same bytes; `bye` gets `{type: done}` then close 1000, `quit` close 4001.
 * `/status` says `{state: pending}` to the first two connections
 * and `{state: ready}` after, then closes; `/gate` says `{type: ready}` 1 s
 * after opening and answers a message sent before that with
 * `{type: too-early}`; `/flood` sends `{n: i}` without end,
 * `/huge?bytes=N` one message of N bytes, `/silent` nothing.
 */
import { WebSocketServer } from "ws";

/** The bearer token the chat's handshake wants. */
export const TOKEN = "tok-3f9a1c7e5b";
/**
 * The ticket the chat's welcome carries: a credential the server hands out
 * under a plain key (`ticket`), secret only because the flow sends it back
 * as a bearer token.
 */
export const TICKET = "tkt-8d2e6b41f0";

/** A running server: its port, what it saw, and how to stop it. */
export interface TestServer {
  port: number;
  /** Each handshake's path and the protocol chosen; each message received, as text or base64. */
  seen: string[];
  close(): Promise<void>;
}

/** What a server's peer can do, whichever server carries it. */
interface Socket {
  send(data: string | Uint8Array): void;
  close(code: number, reason?: string): void;
}

/** The chat and the misbehaving paths, on an open socket. */
function behave(path: string, socket: Socket, seen: string[]): (data: string | Uint8Array) => void {
  const url = new URL(path, "http://x");
  if (url.pathname === "/status") {
    const opened = seen.filter((line) => line.startsWith("open /status")).length;
    socket.send(JSON.stringify({ state: opened > 2 ? "ready" : "pending" }));
    socket.close(1000);
  }
  if (url.pathname === "/flood") flood(socket);
  if (url.pathname === "/huge") socket.send("x".repeat(Number(url.searchParams.get("bytes"))));
  if (url.pathname === "/gate") return gate(socket);
  if (url.pathname === "/chat") socket.send(JSON.stringify({ type: "welcome", ticket: TICKET }));
  return (data) => {
    if (typeof data !== "string") {
      seen.push(`binary ${btoa(String.fromCharCode(...data))}`);
      return socket.send(data);
    }
    seen.push(`text ${data}`);
    if (data === "bye") {
      socket.send(JSON.stringify({ type: "done" }));
      return socket.close(1000, "done");
    }
    if (data === "quit") return socket.close(4001, "app says bye");
    socket.send(JSON.stringify({ type: "echo", got: parsed(data) }));
  };
}

/** `/gate`: says `ready` a moment after opening; a message before that gets `too-early`. */
function gate(socket: Socket): (data: string | Uint8Array) => void {
  let ready = false;
  setTimeout(() => {
    ready = true;
    try {
      socket.send(JSON.stringify({ type: "ready" }));
    } catch {
      // Closed before it was ready.
    }
  }, 1_000);
  return (data) => socket.send(JSON.stringify({ type: ready ? "echo" : "too-early", got: data }));
}

function flood(socket: Socket): void {
  let n = 0;
  const timer = setInterval(() => {
    try {
      // A few per tick: a sender that never stops, without starving the test's own work.
      for (let i = 0; i < 5; i++) socket.send(JSON.stringify({ n: n++ }));
    } catch {
      clearInterval(timer);
    }
  }, 1);
  (socket as { onGone?: () => void }).onGone = () => clearInterval(timer);
}

function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** The session cookie `/login` sets and `/jar` wants. */
export const SID = "sid-5c0ffee1";

/** Whether a handshake may go on: the chat needs the token, `/jar` the session cookie. */
function allowed(path: string, authorization: string | null, cookie: string | null): boolean {
  if (path.startsWith("/jar")) return (cookie ?? "").split(/;\s*/).includes(`sid=${SID}`);
  return !path.startsWith("/chat") || authorization === `Bearer ${TOKEN}`;
}

const REFUSAL = JSON.stringify({ error: "unauthorized", hint: "send a bearer token" });

/**
 * The `ws` package's server, plain or over TLS (`tls`: PEM cert and key, and
 * to require a client certificate, the CA it must chain to), compressing
 * messages when `deflate` (permessage-deflate). Besides the chat, `/drop`
 * sends one message and drops the connection without a close frame, and
 * `/jar` upgrades only with the session cookie and sets `seen=ws`.
 *
 * @example
 * const server = await wsServer();
 * try { … ws://127.0.0.1:${server.port}/chat … } finally { await server.close(); }
 */
export async function wsServer(
  tls?: {
    cert: string;
    key: string;
    ca?: string;
    requestCert?: boolean;
    rejectUnauthorized?: boolean;
  },
  deflate = false,
): Promise<TestServer> {
  const seen: string[] = [];
  const https = tls ? (await import("node:https")).createServer(tls) : undefined;
  // deno-lint-ignore no-explicit-any -- the ws package ships no types
  const server: any = new WebSocketServer({
    ...(https ? { server: https } : { host: "127.0.0.1", port: 0 }),
    perMessageDeflate: deflate,
    handleProtocols: (offered: Set<string>) => offered.has("chat.v1") ? "chat.v1" : false,
    // deno-lint-ignore no-explicit-any
    verifyClient: (info: any, done: any) =>
      allowed(
          info.req.url ?? "/",
          info.req.headers.authorization ?? null,
          info.req.headers.cookie ?? null,
        )
        ? done(true)
        : done(false, 401, REFUSAL, { "Content-Type": "application/json" }),
  });
  // `/jar`'s upgrade sets a cookie, which a flow's jar keeps for its next requests.
  server.on("headers", (headers: string[], req: { url?: string }) => {
    if (req.url?.startsWith("/jar")) headers.push("Set-Cookie: seen=ws; Path=/");
  });
  // deno-lint-ignore no-explicit-any
  server.on("connection", (peer: any, req: any) => {
    seen.push(`open ${req.url} ${peer.protocol || "-"}`);
    if (deflate) seen.push(`extensions ${peer.extensions}`);
    // `/drop`: one message, then the connection dropped without a close frame.
    if (req.url === "/drop") {
      return peer.send(JSON.stringify({ type: "bye" }), () => peer.terminate());
    }
    const socket = peer as unknown as Socket & { onGone?: () => void };
    const answer = behave(req.url ?? "/", socket, seen);
    peer.on(
      "message",
      (data: Uint8Array, binary: boolean) =>
        answer(binary ? new Uint8Array(data) : new TextDecoder().decode(data)),
    );
    peer.on("close", () => socket.onGone?.());
    peer.on("error", () => socket.onGone?.());
  });
  if (https) await new Promise<void>((r) => https.listen(0, "127.0.0.1", r));
  else await new Promise<void>((r) => server.on("listening", r));
  const address = (https ?? server).address() as { port: number };
  return {
    port: address.port,
    seen,
    close: async () => {
      for (const client of server.clients) client.terminate();
      await new Promise<void>((r) => server.close(() => r()));
      if (https) await new Promise<void>((r) => https.close(() => r()));
    },
  };
}

/**
 * Deno's own server: the same chat through `Deno.upgradeWebSocket`, and
 * `/whoami`, plain HTTP, answering the session it is sent as a bearer token.
 *
 * @example
 * const server = denoServer();
 * try { … } finally { await server.close(); }
 */
export function denoServer(): TestServer {
  const seen: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, (req) => {
    const url = new URL(req.url);
    if (url.pathname === "/whoami") {
      const ok = req.headers.get("authorization") === `Bearer ${TICKET}`;
      return Response.json({ user: ok ? "ada" : null }, { status: ok ? 200 : 401 });
    }
    if (url.pathname === "/login") {
      return new Response("{}", { headers: { "set-cookie": `sid=${SID}; Path=/` } });
    }
    if (url.pathname === "/cookies") return Response.json({ cookie: req.headers.get("cookie") });
    if (!allowed(url.pathname, req.headers.get("authorization"), req.headers.get("cookie"))) {
      return new Response(REFUSAL, {
        status: 401,
        headers: { "content-type": "application/json" },
      });
    }
    const offered = (req.headers.get("sec-websocket-protocol") ?? "").split(/,\s*/);
    const protocol = offered.includes("chat.v1") ? "chat.v1" : undefined;
    const { socket, response } = Deno.upgradeWebSocket(req, protocol ? { protocol } : {});
    socket.binaryType = "arraybuffer";
    socket.onopen = () => {
      seen.push(`open ${url.pathname}${url.search} ${protocol ?? "-"}`);
      const answer = behave(url.pathname + url.search, socket, seen);
      socket.onmessage = (e) =>
        answer(typeof e.data === "string" ? e.data : new Uint8Array(e.data as ArrayBuffer));
      socket.onclose = () => (socket as { onGone?: () => void }).onGone?.();
    };
    return response;
  });
  return { port: server.addr.port, seen, close: () => server.shutdown() };
}

/**
 * A TCP port in front of `target` that drops its first `drop` connections
 * at once (the server is down), then passes the rest through.
 *
 * @example
 * const front = flakyFront(server.port, 2);
 * try { … ws://127.0.0.1:${front.port}/chat … } finally { front.close(); }
 */
export function flakyFront(target: number, drop: number): { port: number; close(): void } {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const conns = new Set<Deno.Conn>();
  let seen = 0;
  (async () => {
    for await (const conn of listener) {
      if (seen++ < drop) {
        conn.close();
        continue;
      }
      conns.add(conn);
      const upstream = await Deno.connect({ hostname: "127.0.0.1", port: target });
      conns.add(upstream);
      conn.readable.pipeTo(upstream.writable).catch(() => {});
      upstream.readable.pipeTo(conn.writable).catch(() => {});
    }
  })().catch(() => {});
  return {
    port: (listener.addr as Deno.NetAddr).port,
    close: () => closeAll(listener, conns),
  };
}

/**
 * A CONNECT proxy that wants `Proxy-Authorization: Basic <user:password>`
 * (else 407) and records each request head it was sent.
 *
 * @example
 * const proxy = authProxy("u", "p");
 * try { … --proxy http://u:p@127.0.0.1:${proxy.port} … } finally { proxy.close(); }
 */
export function authProxy(user: string, password: string): {
  port: number;
  heads: string[];
  close(): void;
} {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const heads: string[] = [];
  const conns = new Set<Deno.Conn>();
  const wanted = `Basic ${btoa(`${user}:${password}`)}`;
  (async () => {
    for await (const conn of listener) {
      conns.add(conn);
      tunnel(conn, wanted, heads, conns).catch(() => conn.close());
    }
  })().catch(() => {});
  return {
    port: (listener.addr as Deno.NetAddr).port,
    heads,
    close: () => closeAll(listener, conns),
  };
}

async function tunnel(
  conn: Deno.Conn,
  wanted: string,
  heads: string[],
  conns: Set<Deno.Conn>,
): Promise<void> {
  // The head of a CONNECT is small and comes first.
  const head = await readHead(conn);
  if (head === undefined) return conn.close();
  heads.push(head.split("\r\n\r\n")[0]);
  const [, target] = head.split(" ");
  const auth = /^proxy-authorization:\s*(.+)$/im.exec(head)?.[1]?.trim();
  if (auth !== wanted) {
    await conn.write(
      new TextEncoder().encode("HTTP/1.1 407 Proxy Authentication Required\r\n\r\n"),
    );
    return conn.close();
  }
  const [hostname, port] = target.split(":");
  const upstream = await Deno.connect({ hostname, port: Number(port) });
  conns.add(upstream);
  await conn.write(new TextEncoder().encode("HTTP/1.1 200 Connection Established\r\n\r\n"));
  conn.readable.pipeTo(upstream.writable).catch(() => {});
  upstream.readable.pipeTo(conn.writable).catch(() => {});
}

/**
 * A server that speaks just enough WebSocket to upgrade (the accept key
 * computed as RFC 6455 says), then sends `frames` as raw bytes and leaves
 * the connection open: for a server that breaks the protocol.
 *
 * @example
 * const raw = rawServer([new Uint8Array([0x83, 0x00])]); // a reserved opcode
 * try { … ws://127.0.0.1:${raw.port}/ … } finally { raw.close(); }
 */
export function rawServer(frames: Uint8Array[]): { port: number; close(): void } {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const conns = new Set<Deno.Conn>();
  (async () => {
    for await (const conn of listener) {
      conns.add(conn);
      upgradeRaw(conn, frames).catch(() => {});
    }
  })().catch(() => {});
  return {
    port: (listener.addr as Deno.NetAddr).port,
    close: () => closeAll(listener, conns),
  };
}

async function upgradeRaw(conn: Deno.Conn, frames: Uint8Array[]): Promise<void> {
  const head = await readHead(conn);
  if (head === undefined) return;
  const key = /^sec-websocket-key:\s*(\S+)/im.exec(head)?.[1] ?? "";
  const digest = await crypto.subtle.digest(
    "SHA-1",
    new TextEncoder().encode(`${key}258EAFA5-E914-47DA-95CA-C5AB0DC85B11`),
  );
  const accept = btoa(String.fromCharCode(...new Uint8Array(digest)));
  await conn.write(
    new TextEncoder().encode(
      "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n" +
        `Sec-WebSocket-Accept: ${accept}\r\n\r\n`,
    ),
  );
  for (const frame of frames) await conn.write(frame);
}

/** Stops `listener` and closes every connection in `conns`, passing over one its pipe closed. */
function closeAll(listener: Deno.Listener, conns: Set<Deno.Conn>): void {
  listener.close();
  for (const conn of conns) {
    try {
      conn.close();
    } catch {
      // Closed by its pipe already.
    }
  }
}

/** A request's head, read up to its blank line (16 KiB at most); undefined when the peer closed first. */
async function readHead(conn: Deno.Conn): Promise<string | undefined> {
  const buffer = new Uint8Array(16 * 1024);
  let length = 0;
  let head = "";
  while (!head.includes("\r\n\r\n") && length < buffer.length) {
    const n = await conn.read(buffer.subarray(length));
    if (n === null) return undefined;
    length += n;
    head = new TextDecoder().decode(buffer.subarray(0, length));
  }
  return head;
}

/**
 * The server tests/export/artillery_kinds_test.ts runs the kinds flow
 * (tests/fixtures/export/kinds.yaml) against, on 127.0.0.1 with an
 * ephemeral port, stopped by the test. Every request carries the flow's run
 * id in `x-run` (one per Artillery virtual user), and the server records
 * what each run sent:
 *
 * - `/chat`, a WebSocket (Deno's own `Deno.upgradeWebSocket`): the
 *   handshake needs `authorization: Bearer <token>` (else 401 with a JSON
 *   body); `chat.v1` is chosen when offered; it says
 *   `{type: welcome, ticket}` with a ticket new to each connection, answers
 *   each text message with `{type: echo, got}` (parsed when JSON), each
 *   binary one with its bytes, and `bye` with `{type: done}` then close 1000.
 * - `/events?ticket=T`, an event stream: two `progress` events then `done`
 *   whose result is `r-T` (only for a ticket the chat gave), then it ends.
 * - `/use?ticket=T&result=R`: 200 when R is the result of T, else 400.
 * - `/tricky` (an event stream in awkward chunks), `/closing` (a WebSocket
 *   the server closes with 4001), `/denied` (401 with a JSON body): the
 *   edges tests/export/processor_kinds_test.ts compares; `/large` (an event
 *   stream of 2 KiB of comment, then an event) for --max-body; `/request` (an event
 *   stream or a WebSocket) says in one event or message the query,
 *   `authorization` and `cookie` it was sent, for the auth a step adds (an
 *   event stream's answer sets the cookie `streamed=1`); `/login` sets a
 *   cookie `sid` new to each request.
 */

/** What one run (virtual user) sent, in order: `ws open`, `ws text hello`, `sse /events?…`, `use …`. */
export type Seen = Map<string, string[]>;

/** A running server. */
export interface KindsServer {
  httpUrl: string;
  wsUrl: string;
  seen: Seen;
  close(): Promise<void>;
}

const parsed = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
};

/** The chat on an upgraded socket. */
function chat(socket: WebSocket, tickets: Set<string>, log: string[]): void {
  socket.binaryType = "arraybuffer";
  socket.onopen = () => {
    const ticket = `tkt-${crypto.randomUUID()}`;
    tickets.add(ticket);
    socket.send(JSON.stringify({ type: "welcome", ticket }));
  };
  socket.onmessage = (event) => {
    if (typeof event.data !== "string") {
      const bytes = new Uint8Array(event.data as ArrayBuffer);
      log.push(`ws binary ${btoa(String.fromCharCode(...bytes))}`);
      return socket.send(bytes);
    }
    log.push(`ws text ${event.data}`);
    if (event.data !== "bye") {
      return socket.send(JSON.stringify({ type: "echo", got: parsed(event.data) }));
    }
    socket.send(JSON.stringify({ type: "done" }));
    socket.close(1000, "done");
  };
}

/** The event stream of a ticket. */
function events(ticket: string): Response {
  const text = [
    'id: 1\nevent: progress\ndata: {"pct": 50}\n\n',
    ": keep-alive\r\n\r\n",
    'id: 2\r\nevent: progress\r\ndata: {"pct": 100}\r\n\r\n',
    `id: 3\nevent: done\ndata: {"result": "r-${ticket}"}\n\n`,
  ].join("");
  return new Response(text, { headers: { "content-type": "text/event-stream" } });
}

/**
 * `/tricky`: an event stream in chunks cut at awkward places (a CRLF across
 * two chunks, one inside an event's data lines, a field name split), with a
 * BOM, a comment, data over two lines, an id that persists, a retry and
 * text that is not JSON.
 */
const TRICKY = [
  "\uFEFF: tricky\r",
  '\nretry: 1500\r\nid: 7\r\nevent: tick\r\ndata: {"n":',
  " 1}\r\n\r",
  "\nda",
  'ta: {"n": 2,\r',
  '\ndata: "two": true}\n\n',
  "event: note\ndata: plain text\n\nid: 9\ndata: 4\n\ndata: never read\n\n",
];

/** A stream of `parts`, each 20 ms after the last, so they arrive as separate chunks. */
function chunked(parts: string[]): Response {
  const encoder = new TextEncoder();
  let i = 0;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (i >= parts.length) return controller.close();
      if (i > 0) await new Promise((r) => setTimeout(r, 20));
      controller.enqueue(encoder.encode(parts[i++]));
    },
  });
  return new Response(body, { headers: { "content-type": "text/event-stream" } });
}

/** `/closing`: two messages, then the server closes with 4001. */
function closing(socket: WebSocket, log: string[]): void {
  socket.onopen = () => {
    socket.send(JSON.stringify({ n: 1 }));
    socket.send("second");
    socket.close(4001, "app says bye");
  };
  socket.onmessage = (event) => void log.push(`ws text ${event.data}`);
}

/**
 * Starts the server; `token` is the bearer token the chat's handshake wants; with `tls`
 * (PEM text of a certificate and its key) it serves https:// and wss://.
 *
 * @example
 * ```ts ignore
 * const server = startKindsServer("t");
 * await server.close();
 * ```
 */
export function startKindsServer(
  token: string,
  tls?: { cert: string; key: string },
): KindsServer {
  const seen: Seen = new Map();
  const tickets = new Set<string>();
  const options = { hostname: "127.0.0.1", port: 0, onListen() {}, ...tls };
  const server = Deno.serve(options, (request) => {
    const url = new URL(request.url);
    const run = request.headers.get("x-run") ?? "none";
    const log = seen.get(run) ?? [];
    seen.set(run, log);
    if (url.pathname === "/chat") {
      if (request.headers.get("authorization") !== `Bearer ${token}`) {
        return Response.json({ error: "no token" }, { status: 401 });
      }
      const offered = request.headers.get("sec-websocket-protocol") ?? "";
      const protocol = offered.split(",").map((p) => p.trim()).includes("chat.v1")
        ? "chat.v1"
        : undefined;
      const { socket, response } = Deno.upgradeWebSocket(request, { protocol });
      log.push("ws open");
      chat(socket, tickets, log);
      return response;
    }
    if (url.pathname === "/closing") {
      const { socket, response } = Deno.upgradeWebSocket(request);
      log.push("ws open closing");
      closing(socket, log);
      return response;
    }
    if (url.pathname === "/large") {
      // 2 KiB of comment before any event: past a --max-body of 1KiB with no event read.
      return chunked([`: ${"x".repeat(2048)}\n\n`, "data: late\n\n"]);
    }
    if (url.pathname === "/tricky") {
      log.push("sse tricky");
      return chunked(TRICKY);
    }
    if (url.pathname === "/request") {
      // What the request carried, for the auth a step adds: as a WebSocket message or an event.
      const carried = JSON.stringify({
        search: url.search,
        authorization: request.headers.get("authorization"),
        cookie: request.headers.get("cookie"),
      });
      if (request.headers.get("upgrade") !== "websocket") {
        const answer = chunked([`data: ${carried}\n\n`]);
        answer.headers.set("set-cookie", "streamed=1; Path=/");
        return answer;
      }
      const { socket, response } = Deno.upgradeWebSocket(request);
      socket.onopen = () => socket.send(carried);
      return response;
    }
    if (url.pathname === "/login") {
      log.push("login");
      const headers = { "set-cookie": `sid=${crypto.randomUUID()}; Path=/` };
      return Response.json({ ok: true }, { headers });
    }
    if (url.pathname === "/denied") return Response.json({ error: "no" }, { status: 401 });
    const ticket = url.searchParams.get("ticket") ?? "";
    if (url.pathname === "/events" && tickets.has(ticket)) {
      log.push("sse events");
      return events(ticket);
    }
    if (url.pathname === "/use") {
      const ok = tickets.has(ticket) && url.searchParams.get("result") === `r-${ticket}`;
      log.push(`use ${ok ? "ok" : "bad"}`);
      return Response.json({ ok }, { status: ok ? 200 : 400 });
    }
    return new Response("not found", { status: 404 });
  });
  const base = `127.0.0.1:${server.addr.port}`;
  // With tls (PEM text of a certificate and its key), https:// and wss://.
  const secure = tls ? "s" : "";
  return {
    httpUrl: `http${secure}://${base}`,
    wsUrl: `ws${secure}://${base}`,
    seen,
    close: () => server.shutdown(),
  };
}

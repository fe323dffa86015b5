/**
 * The processor's WebSocket exchange, as lib/kinds/websocket makes it:
 * connect with the step's headers and subprotocols, send its messages in
 * order (an item with `after: N` once N messages came, one with
 * `after: {message}` once a message since the item before it made that
 * hold), receive until each `until` path held for some message, `count`
 * messages came, `wait` ran out or the server closed,
 * then send what that last message made due and close with 1000. The
 * response is the handshake's status and headers with
 * `{messages, close, stopped}` as its JSON body; a refused upgrade gives its
 * status, headers and body, as in `flowrun run`.
 *
 * The client is the `ws` package, from beside the script or else from
 * Artillery's own dependencies (Artillery depends on it): it sends
 * handshake headers and shows the handshake's status and headers. Without
 * it, Node's own `WebSocket` (Node 22 and later) is used, which shows
 * neither: status 101 and the chosen subprotocol only.
 *
 * @module
 */

/**
 * The JavaScript of `webSocketExchange(spec, timeoutMs, tls)`, which resolves to
 * the response or rejects when no connection opened.
 *
 * @example
 * ```ts
 * import { WEBSOCKET_SOURCE } from "./processor_websocket.ts";
 * if (!WEBSOCKET_SOURCE.includes('optionalModule("ws")')) throw new Error();
 * ```
 */
export const WEBSOCKET_SOURCE = `
/** The WebSocket client: the ws package, else Node's own (22 and later). */
function webSocketClient() {
  const ws = optionalModule("ws");
  if (ws) return ws.WebSocket || ws;
  if (globalThis.WebSocket) return undefined;
  throw new Error("no WebSocket client: run npm install ws beside the script, or use Node 22 or later");
}

/** A message as flowrun's $.json.messages holds it: text parsed when JSON, binary as base64. */
function wsMessage(data, binary) {
  const bytes = Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data);
  return binary ? { binary: bytes.toString("base64") } : parsed(typeof data === "string" ? data : bytes.toString());
}

/** A send item's payload. */
const wsPayload = (item) => item.kind === "json" ? JSON.stringify(item.value)
  : item.kind === "binary" ? Buffer.from(String(item.value), "base64") : String(item.value);

/** Opens the socket with one of the clients, its events handed to \`on\`. */
function wsOpen(spec, timeoutMs, tls, on) {
  const url = spec.url.replace(/^http/, "ws");
  const headers = {};
  for (const [name, value] of Object.entries(spec.headers || {})) {
    if (value !== null && value !== undefined) headers[name] = typeof value === "string" ? value : JSON.stringify(value);
  }
  const Client = webSocketClient();
  if (!Client) {
    if (tls) throw new Error("Node's own WebSocket takes no CA or client certificate: run npm install ws beside the script");
    const socket = new globalThis.WebSocket(url, { protocols: spec.subprotocols, headers });
    socket.binaryType = "arraybuffer";
    socket.addEventListener("open", () => on.open({ statusCode: 101,
      headers: socket.protocol ? { "sec-websocket-protocol": socket.protocol } : {} }));
    socket.addEventListener("message", (e) => on.message(e.data, typeof e.data !== "string"));
    socket.addEventListener("close", (e) => on.close(e.code, e.reason));
    socket.addEventListener("error", (e) => on.error(new Error(e.message || "the WebSocket failed")));
    return socket;
  }
  // The step's CAs, client certificate and insecure go to the TLS connection, as ws takes Node's options.
  const socket = new Client(url, spec.subprotocols, { headers, handshakeTimeout: timeoutMs, ...tls });
  let answer = { statusCode: 101, headers: {} };
  const setCookies = (res) => [].concat(res.headers["set-cookie"] || []);
  socket.on("upgrade", (res) => {
    answer = { statusCode: res.statusCode, headers: res.headers, setCookies: setCookies(res) };
  });
  socket.on("open", () => on.open(answer));
  // ws 8 says whether a message is binary; ws 7 gives text as a string.
  socket.on("message", (data, isBinary) => on.message(data, isBinary === undefined ? typeof data !== "string" : isBinary));
  socket.on("close", (code, reason) => on.close(code, String(reason || "")));
  socket.on("error", (error) => on.error(error));
  socket.on("unexpected-response", (req, res) => {
    const chunks = [];
    let size = 0;
    res.on("data", (chunk) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    res.on("end", () => {
      on.refused({ statusCode: res.statusCode, headers: res.headers, setCookies: setCookies(res),
        body: Buffer.concat(chunks).toString() });
      req.destroy();
    });
  });
  return socket;
}

/** Why receiving stopped, in the words of flowrun's failed until. */
const wsWhy = (stopped, spec, timeoutMs, close) => ({
  until: undefined,
  count: ' (the "count" limit)',
  wait: " within " + spec.waitMs + " ms",
  timeout: " within " + timeoutMs + " ms",
  closed: " before the server closed the connection (code " + (close && close.code) + ")",
})[stopped];

/** One exchange of a websocket step. */
function webSocketExchange(spec, timeoutMs, tls) {
  return new Promise((resolve, reject) => {
    const messages = [];
    let answer, socket;
    let sent = 0;
    let next = 0;
    let settled = false;
    // The messages' bytes together, bounded by the body limit as flowrun bounds them.
    let bytes = 0;
    const timers = [];
    const settle = (outcome) => {
      if (settled) return;
      settled = true;
      timers.forEach(clearTimeout);
      return "error" in outcome ? reject(outcome.error) : resolve(outcome);
    };
    // Each until path holds once some message made it hold; the paths still unheld name the failure.
    const unheld = [...(spec.until || [])];
    const end = (stopped, close) => settle({ ...answer, received: messages.length, sent,
      body: JSON.stringify({ messages, close: close || null, stopped }),
      failures: untilFailures(unheld.length ? { until: unheld } : {},
        messages.length, "message", wsWhy(stopped, spec, timeoutMs, close)) });
    // The messages that came since the item before the next one was sent.
    let mark = 0;
    const due = (item) => item.after === undefined || typeof item.after === "number"
      ? (item.after || 0) <= messages.length
      : messages.slice(mark).some((m) => untilHolds(item.after.message, m));
    const flush = () => {
      while (next < spec.send.length && due(spec.send[next])) {
        socket.send(wsPayload(spec.send[next++]));
        sent++;
        mark = messages.length;
      }
    };
    const stop = (stopped) => {
      if (settled) return;
      if (!answer) {
        settle({ error: new Error("The connection did not open within " + timeoutMs + " ms.") });
        return socket.terminate ? socket.terminate() : socket.close();
      }
      flush();
      end(stopped);
      socket.close(1000);
    };
    timers.push(setTimeout(() => stop("timeout"), timeoutMs));
    socket = wsOpen(spec, timeoutMs, tls, {
      open(handshake) {
        answer = handshake;
        if (spec.waitMs !== undefined) timers.push(setTimeout(() => stop("wait"), spec.waitMs));
        flush();
      },
      message(data, binary) {
        if (settled) return;
        bytes += typeof data === "string" ? Buffer.byteLength(data) : [].concat(data).reduce((n, b) => n + b.byteLength, 0);
        if (bytes > MAX_BODY_BYTES) {
          settle({ error: new Error("The messages received came to more than " + MAX_BODY_BYTES +
            " bytes, the most a response may hold; raise --max-body or receive fewer (count, until).") });
          return socket.terminate ? socket.terminate() : socket.close();
        }
        messages.push(wsMessage(data, binary));
        if (unheld.length) {
          unheld.splice(0, unheld.length, ...unheld.filter((u) => !untilHolds(u, messages.at(-1))));
          if (!unheld.length) return stop("until");
        }
        if (messages.length >= spec.count) return stop("count");
        flush();
      },
      close: (code, reason) => answer ? end("closed", { code, reason }) : settle({
        error: new Error("The server closed the connection before the handshake completed."),
      }),
      error: (error) => answer || settle({ error }),
      refused: (res) => settle({ ...res, received: 0, sent: 0,
        failures: untilFailures(spec, 0, "message", " (the server refused the upgrade with " + res.statusCode + ")") }),
    });
  });
}
`;

/**
 * One attempt of a WebSocket step: its values rendered, the connection made
 * with the `ws` client (handshake headers, subprotocols, the run's CAs,
 * client certificate and `--insecure`), the messages sent, the replies
 * received until the step's rule or a bound stops it, and the outcome in the
 * shape checks read: status 101 (or the refusing status), the handshake's
 * headers, and `$.json` = `{messages, close, stopped}`.
 *
 * @module
 */
import { ExpressionError } from "../../expr/errors.ts";
import { around, ownWords, type Told, told } from "../../model/told.ts";
import { type CompiledPath, resolvePath } from "../../expr/path.ts";
import type { Expr } from "../../model/template.ts";
import type { KindCall, KindOutcome } from "../kind.ts";
import { type Ending, exchange, seconds } from "./exchange.ts";
import { type RenderedItem, sendBody, sentMessages } from "./messages.ts";
import { type Handshake, handshakeRequest, httpUrl } from "./handshake.ts";
import type { Received } from "./receiver.ts";
import { type ClientSocket, webSocketClient } from "./socket.ts";
import { clientOptions } from "./client_options.ts";
import type { WebSocketSpec } from "./spec.ts";

/**
 * Runs a WebSocket step once.
 *
 * @example
 * ```ts
 * import { attemptWebSocket } from "./attempt.ts";
 * if (typeof attemptWebSocket !== "function") throw new Error();
 * ```
 */
export async function attemptWebSocket(
  spec: WebSocketSpec,
  call: KindCall,
): Promise<KindOutcome> {
  const items = spec.send.map((item) => ({ ...item, value: call.render(item.value) }));
  const resolve = (path: CompiledPath) =>
    resolvePath(path, (expr) => call.render({ kind: "template", template: alone(expr) }));
  const until = spec.until?.map(resolve);
  const handshake = await handshakeRequest(spec, call);
  const request = reported(handshake, spec.subprotocols, items);
  const { url } = handshake;
  if (!/^wss?:\/\//i.test(url) || !URL.canParse(url)) {
    // The URL is a value of the message (it may hold a secret), the rest flowrun's words.
    const message = told`"${url}" is not an absolute ws or wss URL.`;
    return { request, error: { reason: "bad-url", message } };
  }
  const messages = sentMessages(items);
  // A value the flow made that cannot be sent is the flow's mistake, like an unresolved expression.
  // Its message quotes no value, only flowrun's words and the flow's own ("binary", "send"): kept
  // as words, which a short password `binary` or `send` never masks.
  if (typeof messages === "string") throw new ExpressionError(ownWords(messages));
  const socket = await openSocket(handshake, spec.subprotocols, call);
  // A sentence (the proxy's, as a string; the URL's, as told words) instead of a client.
  if (typeof socket === "string" || "words" in socket) {
    return { request, error: { reason: "bad-url", message: socket } };
  }
  const waitMs = Math.min(spec.waitMs ?? call.timeoutMs, call.timeoutMs);
  const outgoing = messages.map((data, i) => {
    const after = items[i].after ?? 0;
    return { data, after: typeof after === "number" ? after : { message: resolve(after.message) } };
  });
  const ending = await exchange(socket, outgoing, {
    url,
    timeoutMs: call.timeoutMs,
    waitMs,
    maxBytes: call.maxBodyBytes,
    count: spec.count,
    ...(until ? { until } : {}),
    ...(call.signal ? { signal: call.signal } : {}),
  });
  if (ending.kind !== "failed") call.cookies?.store(httpUrl(url), ending.setCookies);
  return outcome(request, ending, spec, waitMs);
}

/** What reports show: the handshake as sent (subprotocols too), the messages as the body. */
function reported(
  handshake: Handshake,
  subprotocols: string[],
  items: RenderedItem[],
): KindOutcome["request"] {
  const offered: [string, string][] = subprotocols.length > 0
    ? [["sec-websocket-protocol", subprotocols.join(", ")]]
    : [];
  return {
    method: "WEBSOCKET",
    url: handshake.url,
    headers: [...handshake.headers, ...offered],
    ...(items.length > 0 ? { body: sendBody(items) } : {}),
  };
}

/** The `ws` client connecting, or a sentence when the proxy or the URL cannot be used. */
async function openSocket(
  handshake: Handshake,
  subprotocols: string[],
  call: KindCall,
): Promise<ClientSocket | string | Told> {
  const { url, headers } = handshake;
  const options = clientOptions(url, headers, call);
  if (typeof options === "string") return options;
  const Client = await webSocketClient();
  try {
    return new Client(url, subprotocols, options);
  } catch (error) {
    // The client refuses some URLs the URL parser takes (a #fragment).
    const why = (error as Error).message.replace(/^\w/, (c) => c.toLowerCase()).replace(/\.$/, "");
    return told`"${url}" is not a URL a WebSocket can connect to (${why}).`;
  }
}

/** A template of one expression, whose value stays what it is (a number stays a number). */
function alone(expr: Expr) {
  return { source: expr.text, parts: [expr] };
}

/** The ending as the runner reads it. */
function outcome(
  request: KindOutcome["request"],
  ending: Ending,
  spec: WebSocketSpec,
  waitMs: number,
): KindOutcome {
  if (ending.kind === "failed") {
    return { request, error: { reason: ending.reason, message: ending.message } };
  }
  if (ending.kind === "refused") {
    const { status, headers, body } = ending;
    const failures = spec.until
      ? [{ check: "until", message: untilRefused(spec.until.map((p) => p.source), status) }]
      : [];
    return {
      request,
      response: { status, headers, body },
      ...(failures.length ? { failures } : {}),
    };
  }
  const { status, headers, messages, close } = ending;
  const body = JSON.stringify({ messages, close, stopped: ending.stop });
  const failures = spec.until && !ending.held
    ? [{ check: "until", message: untilMissed(ending.unheld, ending, spec.count, waitMs) }]
    : [];
  return { request, response: { status, headers, body }, ...(failures.length ? { failures } : {}) };
}

/** The server's status is a value of the sentence; the paths are the flow's, the rest flowrun's. */
function untilRefused(sources: string[], status: number): Told {
  return around(
    `until ${quoted(sources)} did not hold: `,
    told`the server refused the upgrade with status ${status}.`,
    "",
  );
}

/** Paths quoted, joined with "and". */
function quoted(sources: string[]): string {
  return sources.map((s) => `"${s}"`).join(" and ");
}

/**
 * Why `until` never held, naming its paths no message made hold, how many
 * messages arrived and what ended receiving. The close code is the server's,
 * a value masked where the step is told; the rest is the flow's paths and
 * flowrun's words and counts.
 *
 * @example
 * ```ts
 * import { untilMissed } from "./attempt.ts";
 * import { tell } from "../../model/told.ts";
 * const m = tell(untilMissed(["$[?@.type == 'done']"], { messages: [1, 2, 3], close: null, stop: "wait", held: false, unheld: [] }, 10, 5000));
 * if (m !== `until "$[?@.type == 'done']" did not hold in the 3 messages that arrived within 5 s.`) throw new Error(m);
 * ```
 */
export function untilMissed(
  sources: string[],
  got: Received,
  count: number,
  waitMs: number,
): Told {
  const n = got.messages.length;
  const arrived = `the ${n} message${n === 1 ? "" : "s"}`;
  const head = `until ${quoted(sources)} did not hold in ${arrived}`;
  switch (got.stop) {
    case "closed":
      return around(
        head,
        told` that arrived before the server closed the connection (code ${got.close?.code}).`,
        "",
      );
    case "count":
      return ownWords(`${head} received, the most "count" allows (${count}).`);
    case "timeout":
      return ownWords(`${head} that arrived within the step's timeout.`);
    default:
      return ownWords(`${head} that arrived within ${seconds(waitMs)}.`);
  }
}

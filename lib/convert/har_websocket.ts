/**
 * The WebSocket conversations of a recording. Chromium's HAR (DevTools'
 * export, Playwright's `recordHar`) holds a socket's data frames on its
 * entry (status 101) as `_webSocketMessages: [{type: "send" | "receive",
 * time, opcode: 1 | 2, data}]`: text as it was, binary as base64; `time` in
 * seconds (DevTools) or milliseconds (Playwright) since the epoch.
 *
 * A browser's socket stays open while the page goes on sending requests, so
 * what it received later may be the answer to those requests: a step that
 * waited for it would wait in vain. The conversation a step replays is what
 * was sent and received before the next kept request began (all of it when
 * the recording has no times); the rest is counted for a note.
 *
 * The received messages become the record's JSON, shaped as the websocket
 * step reports them (`{messages: […]}`, each a JSON value when its text is
 * JSON, else its text, a binary one as `{binary: "<base64>"}`), so the correlation finds
 * what a later request sends of them, and the checks read them, as they do
 * an HTTP response body.
 *
 * @module
 */
import type { HarRecord } from "./har_model.ts";
import { isObject, str } from "./_har_fields.ts";
import { plural, pluralWord } from "../_util/plural.ts";
import { METHOD } from "../load/context.ts";

/** One data frame: text (opcode 1) or binary as base64 (opcode 2). */
export interface WsMessage {
  type: "send" | "receive";
  binary: boolean;
  data: string;
  /** Milliseconds since the epoch, when recorded. */
  time?: number;
  /** A sent message's count of messages received before it in the recording. */
  after?: number;
}

/** What a websocket step replays of a recorded socket. */
export interface WsConversation {
  /** The sent messages before the next kept request began, in order. */
  sent: WsMessage[];
  /** The received messages in the same span, in order. */
  received: WsMessage[];
  /** Messages recorded after it, not replayed. */
  laterSent: number;
  laterReceived: number;
  /** Sent messages in that span past the first {@linkcode MAX_SENT}, not sent. */
  cappedSent: number;
  /** Subprotocols the client offered (`Sec-WebSocket-Protocol` of the request). */
  subprotocols: string[];
}

/** The most messages a step sends: a recording of a chatty page is not a flow to read. */
export const MAX_SENT = 100;

/** Subprotocols and paths of development servers' reload sockets: part of the build, not the app. */
const DEV_SOCKET_PROTOCOL = /^(vite-hmr|vite-ping|webpack-hmr)$/i;
const DEV_SOCKET_PATH = /^\/(_next\/webpack-hmr|__webpack_hmr|sockjs-node|ws\/hmr|__vite_ping)\b/;

/**
 * How much later than the next request's start a frame may be recorded and
 * still count as before it: a HAR's start times are whole milliseconds and
 * Chromium stamps frames with another clock (Playwright recorded an echo
 * 0.2 ms "after" the fetch its arrival started). No server answers a
 * request within this.
 */
const CLOCK_SLACK_MS = 5;

const conversations = new WeakMap<HarRecord, WsConversation>();

/**
 * Whether a record is a WebSocket handshake: Chromium's `websocket` resource
 * type, status 101, or a `ws:`/`wss:` URL.
 *
 * @example
 * ```ts
 * import { isWebSocket } from "./har_websocket.ts";
 * // deno-lint-ignore no-explicit-any
 * if (!isWebSocket({ url: new URL("wss://a.test/live") } as any)) throw new Error();
 * ```
 */
export function isWebSocket(r: Pick<HarRecord, "url" | "status" | "resourceType">): boolean {
  return r.resourceType === "websocket" || r.status === 101 || /^wss?:$/.test(r.url.protocol);
}

/**
 * Whether a WebSocket record is one a flow replays: it holds recorded data
 * frames, and it is not a development server's reload socket (Vite, webpack,
 * Next.js), which a running app never opens.
 *
 * @example
 * ```ts
 * import { isReplayableWebSocket } from "./har_websocket.ts";
 * const r = {
 *   url: new URL("ws://127.0.0.1:5173/"), status: 101, resourceType: "websocket", headers: [],
 *   raw: { _webSocketMessages: [{ type: "send", opcode: 1, data: "hi" }] },
 * };
 * // deno-lint-ignore no-explicit-any
 * if (!isReplayableWebSocket(r as any)) throw new Error();
 * ```
 */
export function isReplayableWebSocket(r: HarRecord): boolean {
  if (!isWebSocket(r) || readMessages(r).length === 0) return false;
  const offered = offeredProtocols(r);
  return !DEV_SOCKET_PATH.test(r.url.pathname) && !offered.some((p) => DEV_SOCKET_PROTOCOL.test(p));
}

/**
 * The recorded conversation of a replayable WebSocket record (set by
 * {@linkcode loadWebSocketMessages}), `undefined` for any other record.
 *
 * @example
 * ```ts
 * import { webSocketOf } from "./har_websocket.ts";
 * // deno-lint-ignore no-explicit-any
 * if (webSocketOf({} as any) !== undefined) throw new Error();
 * ```
 */
export function webSocketOf(r: HarRecord): WsConversation | undefined {
  return conversations.get(r);
}

/**
 * Reads the conversation of each replayable WebSocket among the kept records
 * (in start order): the part before the next request began, its received
 * messages set as the record's JSON; a note per socket whose later messages
 * are left out.
 *
 * @example
 * ```ts
 * import { loadWebSocketMessages, webSocketOf } from "./har_websocket.ts";
 * import { parseHar } from "./har_model.ts";
 * const { records } = parseHar(JSON.stringify({ log: { entries: [{
 *   _resourceType: "websocket",
 *   request: { method: "GET", url: "ws://a.test/chat" }, response: { status: 101 },
 *   _webSocketMessages: [
 *     { type: "send", opcode: 1, data: '{"type":"join"}' },
 *     { type: "receive", opcode: 1, data: '{"type":"joined"}' },
 *   ],
 * }] } }), []);
 * loadWebSocketMessages(records, []);
 * if (webSocketOf(records[0])?.sent.length !== 1) throw new Error();
 * if (JSON.stringify(records[0].json) !== '{"messages":[{"type":"joined"}]}') throw new Error();
 * ```
 */
export function loadWebSocketMessages(ordered: HarRecord[], notes: string[]): void {
  ordered.forEach((r, i) => {
    if (!isReplayableWebSocket(r)) return;
    const next = ordered.slice(i + 1).find((o) =>
      !isWebSocket(o) && o.started !== undefined && r.started !== undefined && o.started > r.started
    )?.started;
    const conversation = conversationBefore(r, next);
    conversations.set(r, conversation);
    r.json = { messages: conversation.received.map(receivedValue) };
    r.hasJson = true;
    notes.push(...laterNotes(r, conversation));
  });
}

/** The messages before `next` (ms since the epoch; all when unknown), at most {@linkcode MAX_SENT} sent. */
function conversationBefore(r: HarRecord, next: number | undefined): WsConversation {
  const messages = readMessages(r);
  const inSpan = (m: WsMessage) =>
    next === undefined || m.time === undefined || m.time <= next + CLOCK_SLACK_MS;
  let received = 0;
  const kept = messages.filter(inSpan).map((m) =>
    m.type === "receive" ? (received++, m) : { ...m, after: received }
  );
  const early = kept.filter((m) => m.type === "send");
  const sent = early.slice(0, MAX_SENT);
  return {
    sent,
    received: kept.filter((m) => m.type === "receive"),
    laterSent: messages.filter((m) => m.type === "send").length - early.length,
    cappedSent: early.length - sent.length,
    laterReceived: messages.filter((m) => m.type === "receive").length - received,
    subprotocols: offeredProtocols(r),
  };
}

/** The notes on what a socket's step does not replay. */
function laterNotes(r: HarRecord, conversation: WsConversation): string[] {
  const { laterReceived, laterSent, cappedSent } = conversation;
  const socket = `The WebSocket ${r.url.origin}${r.url.pathname}`;
  const parts = [
    laterReceived > 0 ? plural(laterReceived, "received message") : "",
    laterSent > 0 ? plural(laterSent, "sent message") : "",
  ].filter((p) => p !== "");
  const notes = [];
  if (parts.length > 0) {
    notes.push(
      `${socket}: ${parts.join(" and ")} recorded after the next request began ${
        pluralWord(laterReceived + laterSent, "is", "are")
      } not replayed: the step would wait for what later requests cause.`,
    );
  }
  if (cappedSent > 0) {
    notes.push(
      `${socket}: only the first ${MAX_SENT} sent messages are sent (${cappedSent} more).`,
    );
  }
  return notes;
}

/**
 * A received message as the websocket step reports it (its `receiver.ts`):
 * a text message's JSON value when it is JSON, else its text; a binary one
 * as `{binary: "<base64>"}`.
 */
function receivedValue(m: WsMessage): unknown {
  if (m.binary) return { binary: m.data };
  const first = m.data.trimStart()[0];
  if (first === undefined || !/[[{"\d\-tfn]/.test(first)) return m.data;
  try {
    return JSON.parse(m.data);
  } catch {
    return m.data;
  }
}

/** The subprotocols a client offered, in order. */
function offeredProtocols(r: HarRecord): string[] {
  const header = r.headers.find((h) => h.name.toLowerCase() === "sec-websocket-protocol");
  // A subprotocol is a token (RFC 6455); quotes or a list written as JSON are no name to offer.
  return (header?.value ?? "").split(",").map((p) => p.trim()).filter((p) => METHOD.test(p));
}

/** The recorded data frames (text and binary; control frames are the socket's own). */
function readMessages(r: HarRecord): WsMessage[] {
  const raw = r.raw._webSocketMessages;
  if (!Array.isArray(raw)) return [];
  const out: WsMessage[] = [];
  for (const m of raw) {
    if (!isObject(m) || (m.type !== "send" && m.type !== "receive")) continue;
    if (m.opcode !== 1 && m.opcode !== 2) continue;
    const data = str(m.data) ?? "";
    out.push({ type: m.type, binary: m.opcode === 2, data, time: millis(m.time) });
  }
  return out;
}

/** A frame's time in ms since the epoch: DevTools writes seconds, Playwright milliseconds. */
function millis(time: unknown): number | undefined {
  if (typeof time !== "number" || !Number.isFinite(time) || time <= 0) return undefined;
  return time < 1e11 ? time * 1000 : time;
}

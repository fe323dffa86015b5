/**
 * A websocket step's call as Chromium records a WebSocket in a HAR: the
 * handshake as a `GET` of the `ws://` URL answered `101 Switching
 * Protocols`, `_resourceType: "websocket"`, and the data frames in
 * `_webSocketMessages: [{type: "send" | "receive", time, opcode, data}]`
 * (text as it was, binary as base64, `time` in seconds since the epoch), so
 * devtools lists the messages and `flowrun convert har` makes a `websocket:`
 * step of them.
 *
 * The step reports what it sent as its `send` items (`after` kept) and what
 * it received as `{messages, close, stopped}`; the frames are put back in
 * the order they went: a sent message once as many replies as its `after`
 * arrived, as the step sends it. The run keeps no time per frame: each is
 * stamped within the call's span, in order, so every frame is before the
 * next request began. A received text that was JSON is written as its JSON
 * again (the same value, spacing aside).
 *
 * @module
 */
import { type CompiledPath, compilePath, select } from "../expr/path.ts";
import type { Exchange } from "../model/events.ts";
import type { BodyBudget } from "./har_budget.ts";

/** One recorded frame, as Chromium writes it. */
export interface WsFrame {
  type: "send" | "receive";
  time: number;
  opcode: 1 | 2;
  data: string;
}

/**
 * The frames of a websocket step's exchange, in the order they went; the
 * comment says when messages were cut by the detail budget or not kept.
 *
 * @example
 * ```ts
 * import { webSocketFrames } from "./har_websocket.ts";
 * import { BodyBudget } from "./har_budget.ts";
 * const { frames } = webSocketFrames({
 *   step: "chat", attempt: 1, started_at: "2026-01-01T00:00:00.000Z", duration_ms: 30,
 *   request: { method: "WEBSOCKET", url: "ws://a.test/chat", headers: [], body: '[{"text":"hi"},{"json":{"a":1},"after":1}]', size: 0 },
 *   response: { status: 101, headers: {}, set_cookies: [], size: 0,
 *     body: '{"messages":[{"type":"welcome"},{"type":"echo"}],"close":null,"stopped":"count"}' },
 * }, new BodyBudget());
 * const order = frames.map((f) => `${f.type} ${f.data}`).join(" | ");
 * if (order !== 'send hi | receive {"type":"welcome"} | send {"a":1} | receive {"type":"echo"}') throw new Error(order);
 * ```
 */
export function webSocketFrames(
  exchange: Exchange,
  budget: BodyBudget,
): { frames: WsFrame[]; comment?: string } {
  const sent = sentItems(exchange.request.body);
  const received = receivedMessages(exchange.response?.body);
  if (received === undefined) {
    return { frames: [], comment: "The messages were longer than the report keeps: not kept." };
  }
  const ordered = interleave(sent, received);
  const start = Date.parse(exchange.started_at);
  let cut = false;
  const frames = ordered.map(({ type, opcode, data }, i) => {
    const kept = budget.keep(data, data.length);
    cut ||= kept.comment !== undefined;
    // Within the call's span and in order: the step's frames all went before the next request.
    const ms = start + exchange.duration_ms * (i + 1) / (ordered.length + 1);
    return { type, time: ms / 1000, opcode, data: kept.text };
  });
  return cut ? { frames, comment: "A message was cut by the report's detail budget." } : { frames };
}

type Frame = Omit<WsFrame, "time">;

/**
 * The sent frames with their turn: sent once `after` replies had arrived, or
 * once a reply since the frame before made the `after: {message}` path hold.
 */
type Sent = Frame & { after: number | CompiledPath };

/** The step's `send` items as frames (a `text`'s value, a `json`'s JSON text, a `binary`'s base64). */
function sentItems(body: string | undefined): Sent[] {
  const items = parseJson(body);
  if (!Array.isArray(items)) return [];
  return items.flatMap((item): Sent[] => {
    if (item === null || typeof item !== "object") return [];
    const after = turnOf(item.after);
    if ("binary" in item) {
      return [{ type: "send", opcode: 2, data: String(item.binary).replace(/\s+/g, ""), after }];
    }
    if ("json" in item) {
      return [{ type: "send", opcode: 1, data: JSON.stringify(item.json), after }];
    }
    if ("text" in item) return [{ type: "send", opcode: 1, data: textOf(item.text), after }];
    return [];
  });
}

/** An item's turn: its count, its `{message}` path compiled (0 when it cannot be: at once). */
function turnOf(after: unknown): number | CompiledPath {
  if (typeof after === "number") return after;
  const message = (after as { message?: unknown } | null)?.message;
  if (typeof message !== "string") return 0;
  try {
    return compilePath(message, "body");
  } catch {
    return 0;
  }
}

/** The received messages as frames; `undefined` when the report's body was cut (not JSON). */
function receivedMessages(body: string | undefined): Frame[] | undefined {
  if (body === undefined || body === "") return [];
  const parsed = parseJson(body);
  if (parsed === undefined) return undefined;
  const messages = (parsed as { messages?: unknown }).messages;
  if (!Array.isArray(messages)) return [];
  return messages.map((m): Frame => {
    const keys = m !== null && typeof m === "object" ? Object.keys(m) : [];
    if (keys.length === 1 && keys[0] === "binary" && typeof m.binary === "string") {
      return { type: "receive", opcode: 2, data: m.binary };
    }
    return { type: "receive", opcode: 1, data: textOf(m) };
  });
}

/**
 * The frames in the order they went: the step sends its messages in order,
 * each once `after` replies arrived or the reply it awaits came
 * (`exchange.ts`); one whose turn never came was not sent.
 */
function interleave(sent: Sent[], received: Frame[]): Frame[] {
  const out: Frame[] = [];
  let next = 0;
  let answered = false;
  const flush = (arrived: number) => {
    while (next < sent.length && due(sent[next].after, arrived, answered)) {
      const { type, opcode, data } = sent[next++];
      out.push({ type, opcode, data });
      answered = false;
    }
  };
  flush(0);
  received.forEach((frame, i) => {
    out.push(frame);
    const after = sent[next]?.after;
    if (typeof after === "object" && heldOn(after, frame)) answered = true;
    flush(i + 1);
  });
  return out;
}

function due(after: number | CompiledPath, arrived: number, answered: boolean): boolean {
  return typeof after === "number" ? after <= arrived : answered;
}

/** Whether a received frame makes `path` hold, as the step tested the message it parsed. */
function heldOn(path: CompiledPath, frame: Frame): boolean {
  const message = frame.opcode === 2 ? { binary: frame.data } : parseJson(frame.data) ?? frame.data;
  try {
    return select(path, [message]).found;
  } catch {
    return false;
  }
}

function textOf(value: unknown): string {
  return typeof value === "string" ? value : JSON.stringify(value) ?? "null";
}

// deno-lint-ignore no-explicit-any
function parseJson(text: string | undefined): any {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * The entry fields of a WebSocket (the request and response are made by
 * `har_entry.ts` from {@linkcode webSocketExchange}).
 *
 * @example
 * ```ts
 * import { webSocketFields } from "./har_websocket.ts";
 * const fields = webSocketFields({ frames: [] });
 * if (fields._resourceType !== "websocket") throw new Error();
 * ```
 */
export function webSocketFields(
  got: { frames: WsFrame[]; comment?: string },
): Record<string, unknown> {
  return {
    _resourceType: "websocket",
    _webSocketMessages: got.frames,
    ...(got.comment ? { comment: got.comment } : {}),
  };
}

/**
 * The exchange as the handshake went: a `GET` with the handshake's headers
 * and no body; the answer's body (the messages) is in the frames instead.
 *
 * @example
 * ```ts
 * import { webSocketExchange } from "./har_websocket.ts";
 * const x = webSocketExchange({
 *   step: "s", attempt: 1, started_at: "", duration_ms: 1,
 *   request: { method: "WEBSOCKET", url: "ws://a.test/", headers: [], body: "[]", size: 2 },
 *   response: { status: 101, headers: {}, set_cookies: [], body: "{}", size: 2 },
 * });
 * if (x.request.method !== "GET" || x.request.body !== undefined || x.response?.body !== "") throw new Error();
 * ```
 */
export function webSocketExchange(exchange: Exchange): Exchange {
  const { body: _, ...request } = exchange.request;
  const { response } = exchange;
  // A refused upgrade's answer (a 401 with its JSON) is a body like any.
  const upgraded = response?.status === 101;
  return {
    ...exchange,
    request: { ...request, method: "GET", size: 0 },
    ...(response && upgraded ? { response: { ...response, body: "", size: 0 } } : {}),
  };
}

/**
 * What a `websocket:` step holds once read ({@linkcode WebSocketSpec}): its
 * target, handshake, the messages it sends and when it stops receiving.
 * Plain data and compiled templates, read again in each worker thread.
 *
 * @module
 */
import type { CompiledPath } from "../../expr/path.ts";
import type { Template, ValueTemplate } from "../../model/template.ts";

/** The most messages a step receives when `count` does not say: a server that never stops is bounded. */
export const DEFAULT_COUNT = 1_000;

/** The most `count` may ask for. */
export const MAX_COUNT = 100_000;

/** The kinds of message a `send` item may be, one key each. */
export const SEND_KINDS = ["text", "json", "binary"] as const;

/**
 * One message to send: `text` as written, `json` serialised, `binary` from
 * base64 (checked at load when constant, when sent otherwise); with `after`,
 * once that many messages were received, or once a message that arrived
 * since the item before it was sent made `after.message` hold.
 *
 * @example
 * ```ts
 * import type { SendItem } from "./spec.ts";
 * const item: SendItem = { kind: "text", value: { kind: "const", value: "hello" } };
 * if (item.kind !== "text") throw new Error();
 * ```
 */
export interface SendItem {
  kind: typeof SEND_KINDS[number];
  value: ValueTemplate;
  /**
   * Sent once this many messages were received, or once a message received
   * since the item before it was sent (the connection opened, for the first)
   * makes `message` select something in `[message]`; and the items before it
   * were sent. At once when absent.
   */
  after?: number | { message: CompiledPath };
}

/**
 * A WebSocket step, as read from its YAML.
 *
 * @example
 * ```ts
 * import { DEFAULT_COUNT, type WebSocketSpec } from "./spec.ts";
 * const spec: WebSocketSpec = {
 *   url: { source: "ws://127.0.0.1:8080/chat", parts: ["ws://127.0.0.1:8080/chat"] },
 *   headers: [],
 *   subprotocols: [],
 *   send: [],
 *   count: DEFAULT_COUNT,
 * };
 * if (spec.count !== 1000) throw new Error();
 * ```
 */
export interface WebSocketSpec {
  /** `ws://` or `wss://`, maybe with `${…}`. */
  url: Template;
  /** Handshake headers, in order, values maybe with `${…}`. */
  headers: [string, ValueTemplate][];
  /** Subprotocols offered (`Sec-WebSocket-Protocol`). */
  subprotocols: string[];
  /** Messages sent in order once the connection opens. */
  send: SendItem[];
  /**
   * Receiving stops once each path has selected something in a message (`$`
   * is a list of that message): one path, or all of a list, in any order.
   */
  until?: CompiledPath[];
  /** Receiving stops after this many messages. */
  count: number;
  /** Receiving stops after this long (ms); the step's timeout when absent. */
  waitMs?: number;
}

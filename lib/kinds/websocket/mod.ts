/**
 * The WebSocket step kind (`websocket:`): a step connects to a `ws://` or
 * `wss://` URL, sends messages (text, JSON, binary), receives until a
 * condition holds or a bound is reached, and its checks and captures read
 * the messages as `$.json.messages` and the server's close as
 * `$.json.close`. See docs/websocket.md.
 *
 * @module
 */
import type { StepKind } from "../kind.ts";
import { attemptWebSocket } from "./attempt.ts";
import { readWebSocket, WEBSOCKET_KEYS } from "./read.ts";
import { WEBSOCKET_SCHEMA } from "./schema.ts";
import type { WebSocketSpec } from "./spec.ts";

export type { WebSocketSpec } from "./spec.ts";

/**
 * The `websocket:` step kind.
 *
 * @example
 * ```ts
 * import { websocket } from "./mod.ts";
 * if (websocket.key !== "websocket" || !websocket.keys.includes("until")) throw new Error();
 * ```
 */
export const websocket: StepKind<WebSocketSpec> = {
  key: "websocket",
  what: "a WebSocket step",
  keys: WEBSOCKET_KEYS,
  required: ["url"],
  read: (map, reading) => readWebSocket(map, reading),
  attempt: attemptWebSocket,
  schema: WEBSOCKET_SCHEMA,
  docs: "docs/websocket.md",
};

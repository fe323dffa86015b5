/**
 * Reads the map under a step's `websocket:` key into a
 * {@linkcode WebSocketSpec}, every mistake one positioned problem, before
 * anything is sent: an unknown key, a `send` item with two kinds of message
 * or none, base64 that is not, an `until` that is not JSONPath, a constant
 * URL that is not `ws://` or `wss://`.
 *
 * @module
 */
import type { Node } from "yaml";
import type { CompiledPath } from "../../expr/path.ts";
import { isConstant } from "../../expr/template.ts";
import type { Template } from "../../model/template.ts";
import type { KindEntry, KindReading } from "../kind.ts";
import { isSeq } from "../yaml_nodes.ts";
import { readHeaders, readSubprotocols } from "./read_handshake.ts";
import { readMessagePath } from "./read_path.ts";
import { readSend } from "./read_send.ts";
import { DEFAULT_COUNT, MAX_COUNT, type WebSocketSpec } from "./spec.ts";

/** The keys a `websocket:` map may hold. */
export const WEBSOCKET_KEYS = [
  "url",
  "headers",
  "subprotocols",
  "send",
  "until",
  "count",
  "wait",
] as const;

/** The longest `wait`: a day (the step's timeout bounds it further when it runs). */
const MAX_WAIT_MS = 86_400_000;

/**
 * A `websocket:` map read and checked: its spec, or `undefined` after problems.
 *
 * @example
 * ```ts
 * import { readWebSocket } from "./read.ts";
 * if (typeof readWebSocket !== "function") throw new Error();
 * ```
 */
export function readWebSocket(
  map: Map<string, KindEntry>,
  reading: KindReading,
): WebSocketSpec | undefined {
  const urlEntry = map.get("url");
  // A missing url was told by the loader's map check.
  const url = urlEntry && readUrl(urlEntry, reading);
  const headers = readHeaders(map.get("headers")?.value ?? null, reading);
  const subprotocols = readSubprotocols(map.get("subprotocols")?.value ?? null, reading);
  const send = readSend(map.get("send")?.value ?? null, reading);
  const stop = readStop(map, reading);
  if (!url || !headers || !subprotocols || !send || !stop) return undefined;
  return { url, headers, subprotocols, send, ...stop };
}

/** When receiving stops: `until`, `count` (1,000 unless told), `wait`; `undefined` after a problem. */
function readStop(
  map: Map<string, KindEntry>,
  reading: KindReading,
): Pick<WebSocketSpec, "until" | "count" | "waitMs"> | undefined {
  const untilEntry = map.get("until");
  const until = untilEntry && readUntil(untilEntry.value, reading);
  const countEntry = map.get("count");
  const count = countEntry
    ? reading.integer(countEntry, `"count" of a websocket step`, 1, MAX_COUNT)
    : DEFAULT_COUNT;
  const waitEntry = map.get("wait");
  const waitMs = waitEntry &&
    reading.duration(waitEntry, `"wait" of a websocket step`, 1, MAX_WAIT_MS);
  const failed = (untilEntry && !until) || count === undefined ||
    (waitEntry && waitMs === undefined);
  if (failed) return undefined;
  return {
    count,
    ...(until ? { until } : {}),
    ...(waitMs !== undefined ? { waitMs } : {}),
  };
}

/** The URL: a template; when it has no expressions, a `ws://` or `wss://` URL now (or `http(s)://`, connected as such). */
function readUrl(entry: KindEntry, reading: KindReading): Template | undefined {
  const template = reading.template(entry.value, `"url" of a websocket step`);
  if (!template || !isConstant(template)) return template;
  const text = template.source;
  if (!/^(wss?|https?):\/\/[^/?#\s]+/i.test(text) || !URL.canParse(text)) {
    reading.problem(
      "bad-url",
      `"${text}" is not an absolute ws or wss URL.`,
      entry.value,
      "Write the full URL, e.g. ws://localhost:8080/chat or wss://${ENV.HOST}/chat (http:// and https:// are connected as ws:// and wss://).",
    );
    return undefined;
  }
  if (text.includes("#")) {
    reading.problem(
      "bad-url",
      `"${text}" has a #fragment, which a WebSocket URL may not hold.`,
      entry.value,
      "Leave out the # and what follows it.",
    );
    return undefined;
  }
  return template;
}

/**
 * `until`: one condition on the message just received, or a list of them
 * that must each have held (on a message of its own or the same one).
 */
function readUntil(node: Node | null, reading: KindReading): CompiledPath[] | undefined {
  if (!isSeq(node)) {
    const path = readMessagePath(node, reading, "until");
    return path && [path];
  }
  if (node.items.length === 0) {
    reading.problem(
      "wrong-type",
      `Expected "until" of a websocket step to list at least one condition, got [].`,
      node,
      "Write one JSONPath, e.g. until: \"$[?@.type == 'done']\", or a list of them.",
    );
    return undefined;
  }
  const paths = node.items.map((item) => readMessagePath(item as Node, reading, "until"));
  return paths.every((p) => p !== undefined) ? paths as CompiledPath[] : undefined;
}

/**
 * Reads a `websocket:` step's `send` list: each item one message, exactly
 * one of `text`, `json` or `binary` (base64, checked now when it has no
 * `${…}`), and `after`: how many messages must have arrived before it is
 * sent, or `{message: PATH}`, the message (a condition as `until` writes
 * it) that must have arrived since the item before it was sent.
 *
 * @module
 */
import type { Node } from "yaml";
import { isMap, isSeq } from "../yaml_nodes.ts";
import { isConstant } from "../../expr/template.ts";
import type { KindEntry, KindReading } from "../kind.ts";
import { readMessagePath } from "./read_path.ts";
import { MAX_COUNT, SEND_KINDS, type SendItem } from "./spec.ts";

/**
 * The `send` list read and checked: its items, or `undefined` after problems.
 *
 * @example
 * ```ts
 * import { readSend } from "./read_send.ts";
 * if (typeof readSend !== "function") throw new Error();
 * ```
 */
export function readSend(node: Node | null, reading: KindReading): SendItem[] | undefined {
  if (node === null) return [];
  if (!isSeq(node)) {
    reading.problem(
      "wrong-type",
      `Expected "send" of a websocket step to be a list of messages, got ${
        JSON.stringify(reading.plain(node))
      }.`,
      node,
      "Write a list, e.g. send: [{text: hello}, {json: {type: subscribe}}].",
    );
    return undefined;
  }
  const out: SendItem[] = [];
  let ok = true;
  node.items.forEach((item, i) => {
    const read = readItem(item as Node, i, reading);
    if (read) out.push(read);
    else ok = false;
  });
  return ok ? out : undefined;
}

/** One item: one key of {@linkcode SEND_KINDS}. */
function readItem(node: Node, index: number, reading: KindReading): SendItem | undefined {
  const what = `message ${index + 1} of "send"`;
  const map = reading.map(node, what, [...SEND_KINDS, "after"]);
  if (!map) return undefined;
  const kinds = [...map.keys()].filter((key) => key !== "after") as SendItem["kind"][];
  if (kinds.length !== 1) {
    // An item whose message key is misspelt was told so, with the nearest key.
    if (kinds.length === 0 && isMap(node) && node.items.length > map.size) return undefined;
    if (kinds.length === 0) {
      reading.problem(
        "missing-key",
        `${capitalised(what)} says no message: it needs one of "text", "json" or "binary".`,
        node,
        "Write e.g. {text: hello}, {json: {type: ping}} or {binary: aGVsbG8=} (base64).",
      );
    } else {
      reading.problem(
        "conflicting-keys",
        `"${kinds[0]}" and "${kinds[1]}" of ${what} are both a message.`,
        map.get(kinds[1])!.keyNode,
        "Each item sends one message: split it into two items.",
      );
    }
    return undefined;
  }
  const afterEntry = map.get("after");
  const after = afterEntry && readAfter(afterEntry, what, reading);
  if (afterEntry && after === undefined) return undefined;
  const message = readMessage(kinds[0], map.get(kinds[0])!, what, reading);
  return message && { ...message, ...(after !== undefined ? { after } : {}) };
}

/** `after`: a count of messages, or `{message: PATH}`, the message awaited. */
function readAfter(entry: KindEntry, what: string, reading: KindReading): SendItem["after"] {
  if (!isMap(entry.value)) return reading.integer(entry, `"after" of ${what}`, 0, MAX_COUNT);
  const map = reading.map(entry.value, `"after" of ${what}`, ["message"], ["message"]);
  const path = map?.get("message");
  // A missing or misspelt "message" was told by the map check.
  const message = path && readMessagePath(path.value, reading, "after");
  return message && { message };
}

/** The message of an item: its kind's value, base64 checked now when constant. */
function readMessage(
  kind: SendItem["kind"],
  entry: KindEntry,
  what: string,
  reading: KindReading,
): SendItem | undefined {
  if (kind === "json") {
    const value = reading.value(entry.value);
    return value && { kind, value };
  }
  const template = reading.template(entry.value, `"${kind}" of ${what}`);
  if (!template) return undefined;
  if (kind === "binary" && isConstant(template) && !isBase64(template.source)) {
    reading.problem(
      "bad-base64",
      `"${clip(template.source)}" of ${what} is not base64.`,
      entry.value,
      "Write the bytes as standard base64 (A-Z, a-z, 0-9, + and /, padded with =), e.g. aGVsbG8=.",
    );
    return undefined;
  }
  return { kind, value: { kind: "template", template } };
}

/**
 * Whether `text` is standard, padded base64 (whitespace aside).
 *
 * @example
 * ```ts
 * import { isBase64 } from "./read_send.ts";
 * if (!isBase64("aGVsbG8=") || isBase64("hello!") || isBase64("aGVsbG8")) throw new Error();
 * ```
 */
export function isBase64(text: string): boolean {
  const bare = text.replace(/\s+/g, "");
  return bare.length % 4 === 0 && /^[A-Za-z0-9+/]*={0,2}$/.test(bare);
}

function capitalised(text: string): string {
  return text[0].toUpperCase() + text.slice(1);
}

function clip(text: string): string {
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

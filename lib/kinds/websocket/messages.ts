/**
 * The messages a WebSocket step sends, from its rendered `send` items: what
 * goes on the wire (text, JSON text, bytes) and what reports show of them.
 *
 * @module
 */
import { isBase64 } from "./read_send.ts";
import type { SendItem } from "./spec.ts";

/** A `send` item with its value rendered in the step's scope. */
export interface RenderedItem {
  kind: SendItem["kind"];
  value: unknown;
  after?: SendItem["after"];
}

/**
 * The frames to send, in order; a sentence instead when a `binary` value
 * made at run time is not base64.
 *
 * @example
 * ```ts
 * import { sentMessages } from "./messages.ts";
 * const out = sentMessages([{ kind: "json", value: { a: 1 } }, { kind: "binary", value: "AQI=" }]);
 * if (typeof out === "string" || out[0] !== '{"a":1}' || (out[1] as Uint8Array)[1] !== 2) throw new Error();
 * ```
 */
export function sentMessages(items: RenderedItem[]): (string | Uint8Array)[] | string {
  const out: (string | Uint8Array)[] = [];
  for (const [i, item] of items.entries()) {
    if (item.kind === "json") out.push(JSON.stringify(item.value) ?? "null");
    else if (item.kind === "text") out.push(asText(item.value));
    else {
      const text = asText(item.value);
      if (!isBase64(text)) {
        // The value is not quoted: it may hold a secret the expressions brought in.
        return `"binary" of message ${
          i + 1
        } of "send" is not base64 once its expressions are resolved.`;
      }
      out.push(Uint8Array.from(atob(text.replace(/\s+/g, "")), (c) => c.charCodeAt(0)));
    }
  }
  return out;
}

/**
 * What reports show as the request body: the items as JSON, one per message,
 * shaped like the YAML (`[{"text": …}, {"json": …, "after": 1}, {"binary": "<base64>"}]`),
 * so secrets in them are found where they sit.
 *
 * @example
 * ```ts
 * import { sendBody } from "./messages.ts";
 * if (sendBody([{ kind: "text", value: "hi" }]) !== '[{"text":"hi"}]') throw new Error();
 * ```
 */
export function sendBody(items: RenderedItem[]): string {
  return JSON.stringify(
    items.map((item) => ({
      [item.kind]: item.value ?? null,
      ...(item.after !== undefined ? { after: afterShown(item.after) } : {}),
    })),
  );
}

function asText(value: unknown): string {
  return typeof value === "string" ? value : JSON.stringify(value) ?? "";
}

/** `after` as the YAML wrote it: a count, or `{message: PATH}`. */
function afterShown(after: NonNullable<SendItem["after"]>): number | { message: string } {
  return typeof after === "number" ? after : { message: after.message.source };
}

/**
 * The messages a WebSocket step receives, and when it stops: once each of
 * `until`'s paths has held on a message, once `count` arrived, once the server closes, or when
 * the exchange says time is up. Each text message is kept parsed when it is
 * JSON, else as its text; a binary one as `{binary: "<base64>"}`. The bytes
 * are counted as they arrive, against the response bound.
 *
 * @module
 */
import { type CompiledPath, select } from "../../expr/path.ts";

/** Why receiving stopped. */
export type Stop = "until" | "count" | "closed" | "wait" | "timeout";

/** What ends receiving besides time: the resolved `until` paths and the most messages. */
export interface StopRule {
  until?: CompiledPath[];
  count: number;
  maxBytes: number;
}

/** What arrived, and why receiving stopped. */
export interface Received {
  messages: unknown[];
  /** The close frame the server sent while the step was receiving; `null` when the step stopped first. */
  close: { code: number; reason: string } | null;
  stop: Stop;
  /** Whether messages made every path of `until` hold. */
  held: boolean;
  /** The paths of `until` no message made hold (empty without `until`). */
  unheld: string[];
  /** Set when the messages came to more bytes than the bound. */
  bytesOver?: boolean;
}

/**
 * Collects messages until a {@linkcode StopRule} or the caller stops it, then
 * calls `done` once.
 *
 * @example
 * ```ts
 * import { Receiver } from "./receiver.ts";
 * let got: unknown;
 * const r = new Receiver({ count: 2, maxBytes: 100 }, (received) => got = received.messages);
 * r.open();
 * r.message(new TextEncoder().encode('{"type":"welcome"}'), false);
 * r.message(new Uint8Array([1, 2]), true);
 * if (JSON.stringify(got) !== '[{"type":"welcome"},{"binary":"AQI="}]') throw new Error();
 * ```
 */
export class Receiver {
  /** Whether the connection opened (the handshake succeeded). */
  opened = false;
  #messages: unknown[] = [];
  #bytes = 0;
  #done = false;
  /** The paths of `until` not held yet. */
  #waiting: CompiledPath[];

  constructor(
    private rule: StopRule,
    private done: (received: Received) => void,
    private arrived: (message: unknown) => void = () => {},
  ) {
    this.#waiting = [...rule.until ?? []];
  }

  /** How many messages arrived so far. */
  get count(): number {
    return this.#messages.length;
  }

  /** The connection is open: messages count from here. */
  open(): void {
    this.opened = true;
  }

  /** A message arrived. */
  message(data: Uint8Array, binary: boolean): void {
    if (this.#done) return;
    this.#bytes += data.length;
    if (this.#bytes > this.rule.maxBytes) return this.#end("count", null, true);
    const message = binary ? { binary: base64(data) } : parsed(new TextDecoder().decode(data));
    this.#messages.push(message);
    // Sent before receiving may stop on this message: a conversation's last word is still said.
    this.arrived(message);
    if (this.#waiting.length > 0) {
      this.#waiting = this.#waiting.filter((path) => !select(path, [message]).found);
      if (this.#waiting.length === 0) return this.#end("until");
    }
    if (this.#messages.length >= this.rule.count) return this.#end("count");
  }

  /** The server closed the connection (or it dropped: 1006). */
  closed(code: number, reason: string): void {
    this.#end("closed", { code, reason });
  }

  /** Time is up (`wait`, or the step's deadline). */
  stop(why: "wait" | "timeout"): void {
    this.#end(why);
  }

  #end(stop: Stop, close: Received["close"] = null, bytesOver = false): void {
    if (this.#done) return;
    this.#done = true;
    this.done({
      messages: this.#messages,
      close,
      stop,
      held: stop === "until",
      unheld: this.#waiting.map((path) => path.source),
      ...(bytesOver ? { bytesOver } : {}),
    });
  }
}

/** A text message as JSON when it parses, else as its text. */
function parsed(text: string): unknown {
  const first = text.trimStart()[0];
  // Only a JSON document's first characters: a bare word stays text without a thrown error.
  if (first === undefined || !/[[{"\d\-tfn]/.test(first)) return text;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function base64(bytes: Uint8Array): string {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary);
}

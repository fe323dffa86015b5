/**
 * The event-stream interpretation of the WHATWG HTML standard (§9.2.6,
 * "Interpreting an event stream"), written out rule by rule: lines end at
 * CRLF, LF or CR (a CR at the end of a chunk waits for the next one, which
 * may start with its LF); a line starting with `:` is a comment; `field:
 * value` loses one space after the colon; `data` lines are joined with LF;
 * `id` persists across events (one holding NUL is ignored); `retry` takes
 * ASCII digits only; an empty line dispatches the event, unless it has no
 * data; a last event without its empty line is never dispatched. The last
 * event ID a reconnection sends is set at dispatch (an `id` line of an event
 * the connection cut off does not count), and a new stream starts from it,
 * as Chromium and Firefox do. The caller decodes UTF-8 (a `TextDecoder`,
 * which drops the BOM).
 *
 * @module
 */

/** One dispatched event, as the stream said it. */
export interface StreamEvent {
  /** The event type: `message` unless an `event` field named another. */
  event: string;
  /** The `data` lines joined with LF. */
  data: string;
  /** The last event ID at dispatch: the latest `id` field, from this event or an earlier one. */
  id: string;
  /** A `retry` this event's lines set (milliseconds), if any. */
  retry?: number;
}

/**
 * Reads an event stream as it arrives, chunk by chunk of decoded text.
 *
 * @example
 * ```ts
 * import { EventStreamParser } from "./event_stream.ts";
 * const parser = new EventStreamParser();
 * const got = [...parser.push("id: 7\r\nevent: tick\r\ndata: {\"n\":1}\r"), ...parser.push("\n\r\n")];
 * if (got.length !== 1 || got[0].event !== "tick" || got[0].id !== "7") throw new Error(JSON.stringify(got));
 * if (parser.lastEventId !== "7") throw new Error();
 * ```
 */
export class EventStreamParser {
  /** The last event ID string, set at each dispatch: what `Last-Event-ID` carries on a reconnect. */
  lastEventId = "";
  /** The reconnection time the stream last set with `retry`, if any (milliseconds). */
  reconnectMs: number | undefined;
  #pending = "";
  #crPending = false;
  #type = "";
  #data: string[] = [];
  #retry: number | undefined;
  /** The last event ID buffer: set by `id` lines, copied to {@linkcode lastEventId} at dispatch. */
  #idBuffer = "";

  /** Feeds decoded text; the events it completed, in order. */
  push(text: string): StreamEvent[] {
    const events: StreamEvent[] = [];
    let start = 0;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c !== 10 && c !== 13) continue;
      // The LF of a CRLF whose CR ended the previous chunk.
      if (c === 10 && i === 0 && this.#crPending && this.#pending === "") {
        this.#crPending = false;
        start = 1;
        continue;
      }
      this.#crPending = false;
      const line = this.#pending + text.slice(start, i);
      this.#pending = "";
      if (c === 13) {
        if (i + 1 < text.length) {
          if (text.charCodeAt(i + 1) === 10) i++;
        } else this.#crPending = true;
      }
      start = i + 1;
      const event = this.#line(line);
      if (event) events.push(event);
    }
    if (start < text.length) {
      this.#crPending = false;
      this.#pending += text.slice(start);
    }
    return events;
  }

  /** How many characters wait for their line's end (bounded by the caller's byte count). */
  get pendingLength(): number {
    return this.#pending.length;
  }

  /** A new stream: forgets a half-read event; it starts from the last event ID, and retry stays. */
  reset(): void {
    this.#idBuffer = this.lastEventId;
    this.#pending = "";
    this.#crPending = false;
    this.#type = "";
    this.#data = [];
    this.#retry = undefined;
  }

  /** One line: a dispatch (empty), a comment, or a field. */
  #line(line: string): StreamEvent | undefined {
    if (line === "") return this.#dispatch();
    if (line.startsWith(":")) return undefined;
    const colon = line.indexOf(":");
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    this.#field(field, value);
    return undefined;
  }

  #field(field: string, value: string): void {
    if (field === "event") this.#type = value;
    else if (field === "data") this.#data.push(value);
    else if (field === "id") {
      if (!value.includes("\0")) this.#idBuffer = value;
    } else if (field === "retry" && /^[0-9]+$/.test(value)) {
      this.#retry = Number(value);
      this.reconnectMs = this.#retry;
    }
  }

  #dispatch(): StreamEvent | undefined {
    const data = this.#data;
    const type = this.#type;
    const retry = this.#retry;
    this.#data = [];
    this.#type = "";
    this.#retry = undefined;
    this.lastEventId = this.#idBuffer;
    if (data.length === 0) return undefined;
    return {
      event: type === "" ? "message" : type,
      data: data.join("\n"),
      id: this.lastEventId,
      ...(retry === undefined ? {} : { retry }),
    };
  }
}

/**
 * The events of an `sse:` step, collected across its connections: each
 * parsed (`event_stream.ts`), its `data` read as JSON when it is JSON,
 * checked against `until`, counted, and every byte counted against the
 * run's body limit.
 *
 * @module
 */
import { type CompiledPath, select } from "../../expr/path.ts";
import { EventStreamParser, type StreamEvent } from "./event_stream.ts";

/** An event as `$.json.events` holds it: `data` parsed when it is JSON. */
export interface ReceivedEvent {
  event: string;
  data: unknown;
  id: string;
  retry?: number;
}

/** Why one connection's reading stopped. */
export type Stop = "until" | "count" | "end" | "too-large";

/**
 * What the step received: the events so far, the bytes, the parser whose
 * last event ID and retry a reconnection uses.
 *
 * @example
 * ```ts
 * import { Collected } from "./collect.ts";
 * const got = new Collected({ count: 10, maxBytes: 1000 });
 * const body = new Response('data: {"n": 1}\n\n: a comment\nevent: done\ndata: x\n\n').body!;
 * if ((await got.read(body)) !== "end") throw new Error();
 * if (got.events.length !== 2 || (got.events[0].data as { n: number }).n !== 1) throw new Error();
 * ```
 */
export class Collected {
  readonly events: ReceivedEvent[] = [];
  readonly parser: EventStreamParser = new EventStreamParser();
  bytes = 0;
  /** Whether `until` selected something in an event. */
  held = false;
  readonly #limits: { count: number; maxBytes: number; until?: CompiledPath };

  constructor(limits: { count: number; maxBytes: number; until?: CompiledPath }) {
    this.#limits = limits;
  }

  /**
   * Reads one connection's body until `until` held, `count` events came, the
   * bytes passed the limit or the stream ended; rejects when the body does
   * (its signal aborted, the connection broke). The body is cancelled when
   * reading stops before its end.
   */
  async read(body: ReadableStream<Uint8Array>): Promise<Stop> {
    const reader = body.getReader();
    const decoder = new TextDecoder();
    this.parser.reset();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return this.#take(this.parser.push(decoder.decode())) ?? "end";
        this.bytes += value.byteLength;
        if (this.bytes > this.#limits.maxBytes) return "too-large";
        const stop = this.#take(this.parser.push(decoder.decode(value, { stream: true })));
        if (stop) return stop;
      }
    } finally {
      reader.cancel().catch(() => {});
    }
  }

  /** Keeps the events; a stop when one met `until` or the count was reached. */
  #take(events: StreamEvent[]): Stop | undefined {
    for (const event of events) {
      const kept = received(event);
      this.events.push(kept);
      if (this.#limits.until && select(this.#limits.until, [kept]).found) {
        this.held = true;
        return "until";
      }
      if (this.events.length >= this.#limits.count) return "count";
    }
    return undefined;
  }
}

/** An event with its data parsed when it is JSON (`42`, `true`, `{…}`), else kept as text. */
function received(event: StreamEvent): ReceivedEvent {
  let data: unknown = event.data;
  if (/\S/.test(event.data)) {
    try {
      data = JSON.parse(event.data);
    } catch {
      // Not JSON: the text as it came.
    }
  }
  return {
    event: event.event,
    data,
    id: event.id,
    ...(event.retry === undefined ? {} : { retry: event.retry }),
  };
}

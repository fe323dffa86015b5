/**
 * The connections of one `sse:` attempt: each request made ready (the jar's
 * cookies, then the step's auth), opened within the deadline, its cookies
 * kept; the first stream read, then a reconnection after the stream's
 * `retry` with `Last-Event-ID` while `reconnects` last.
 *
 * @module
 */
import { around, joined, ownWords, type Told, told } from "../../model/told.ts";
import type { KindCall } from "../kind.ts";
import { isEventStream } from "./answer.ts";
import type { Collected, Stop } from "./collect.ts";
import type { Deadline } from "./deadline.ts";
import { openStream } from "./open.ts";
import { resumed, type SseRequest, withCookies } from "./request.ts";

/** The reconnection delay when the stream set none with `retry` (the spec leaves it to the client). */
export const DEFAULT_RETRY_MS = 1_000;

/** Why reading ended, as `$.json.stopped` says it. */
export type Stopped = "until" | "count" | "wait" | "end";

/** An error the attempt ends with: flowrun's words apart from the values they quote. */
export type Failed = { error: { reason: string; message: Told } };

/** How reading ended (with a note on a reconnection that failed), or the error the attempt ends with. */
export type Ended = { stopped: Stopped; note?: Told } | Failed;

/**
 * What the connections of an attempt share: the request as the step wrote
 * it, the call, the deadline and the events so far.
 *
 * @example
 * ```ts
 * import { Connections } from "./connections.ts";
 * import { Collected } from "./collect.ts";
 * import { Deadline } from "./deadline.ts";
 * import type { KindCall } from "../kind.ts";
 * const call = { network: () => ({ insecure: false }), maxBodyBytes: 100 } as unknown as KindCall;
 * const deadline = new Deadline(1000, undefined);
 * const request = { method: "GET" as const, url: "http://x.test/", headers: [] };
 * const got = new Collected({ count: 1, maxBytes: 100 });
 * const ready = await new Connections(request, call, deadline, got).ready(request);
 * if (ready.headers.length !== 0) throw new Error("no jar, no auth: unchanged");
 * deadline.clear();
 * ```
 */
export class Connections {
  constructor(
    readonly request: SseRequest,
    readonly call: KindCall,
    readonly deadline: Deadline,
    readonly got: Collected,
  ) {}

  /** A request with the jar's cookies for its URL, then the step's auth (as an HTTP step's). */
  async ready(request: SseRequest): Promise<SseRequest> {
    const withJar = withCookies(request, this.call.cookies?.header(request.url));
    return this.call.authorize ? await this.call.authorize(withJar) as SseRequest : withJar;
  }

  /** Opens a connection (its cookies kept), or the error the attempt ends with. */
  async open(request: SseRequest): Promise<{ response: Response } | Failed> {
    const { call, deadline } = this;
    try {
      const response = await openStream(request, call.network(request.url), deadline.signal);
      call.cookies?.store(request.url, response.headers.getSetCookie());
      return { response };
    } catch (error) {
      return { error: deadline.why(error, requestLine(request)) };
    }
  }

  /** Reads the first connection's stream and the reconnections after it. */
  async readAll(first: Response, reconnects: number): Promise<Ended> {
    let response = first;
    for (let left = reconnects;; left--) {
      const stop = response.body ? await this.#readOne(response.body) : "end";
      if (typeof stop !== "string") return stop;
      if (stop === "too-large") return { error: this.#tooLarge() };
      if (stop !== "end" || left <= 0) return { stopped: stop };
      const again = await this.#reconnect();
      if (!(again instanceof Response)) return again;
      response = again;
    }
  }

  /**
   * The next connection, after the stream's `retry` delay (within the
   * deadline), sending the last event ID; or how reading ends when that
   * fails (an answer that is not an event stream ends it, as the spec says).
   */
  async #reconnect(): Promise<Response | Ended> {
    const { deadline, got } = this;
    if (!await deadline.sleep(got.parser.reconnectMs ?? DEFAULT_RETRY_MS)) {
      return deadline.interrupted
        ? { error: deadline.why(undefined, ownWords("")) }
        : { stopped: "wait" };
    }
    const again = await this.open(await this.ready(resumed(this.request, got.parser.lastEventId)));
    if ("error" in again) {
      if (deadline.interrupted) return again;
      if (deadline.expired) return { stopped: "wait" };
      return {
        stopped: "end",
        note: joined(ownWords("reconnecting failed: "), again.error.message),
      };
    }
    if (isEventStream(again.response)) return again.response;
    await again.response.body?.cancel().catch(() => {});
    return { stopped: "end", note: told`the reconnection was answered ${again.response.status}` };
  }

  /** One connection's reading; a broken connection counts as its end, the deadline as `wait`. */
  async #readOne(body: ReadableStream<Uint8Array>): Promise<Stop | "wait" | Failed> {
    const { deadline } = this;
    try {
      return await this.got.read(body);
    } catch (error) {
      if (deadline.interrupted) return { error: deadline.why(error, ownWords("")) };
      if (deadline.expired) return "wait";
      return "end";
    }
  }

  /** The error of a stream past the run's body limit. */
  #tooLarge(): Failed["error"] {
    const max = this.call.maxBodyBytes;
    // The run's own limit and count: flowrun's words.
    return {
      reason: "body-too-large",
      message: ownWords(
        `The event stream sent more than ${max} bytes (the --max-body limit) after ` +
          `${this.got.events.length} events; reading stopped there.`,
      ),
    };
  }
}

/**
 * `GET <url>` for a message: the method is the flow's own (`GET` or `POST`), the URL a value.
 *
 * @example
 * ```ts
 * import { requestLine } from "./connections.ts";
 * import { tell } from "../../model/told.ts";
 * const line = requestLine({ method: "GET", url: "http://x.test/?q=1" });
 * if (tell(line) !== "GET http://x.test/?q=1" || line.values.length !== 1) throw new Error();
 * ```
 */
export function requestLine(request: Pick<SseRequest, "method" | "url">): Told {
  return around(`${request.method} `, told`${request.url}`, "");
}

/**
 * What went on the wire, for reporters that record it (`onExchange`, the
 * HAR): each request as sent with what answered it, a redirect hop as its
 * own. Made only when a reporter listens; bodies are cut at
 * {@linkcode MAX_BODY} here, so a large body never crosses from a worker
 * thread whole.
 *
 * @module
 */
import type { Exchange, FlowRef, Reporter } from "../model/events.ts";
import type { ResolvedRequest } from "../http/request.ts";
import type { ReceivedResponse } from "../http/response.ts";
import type { Redactor } from "../secrets/redactor.ts";
import { MAX_BODY, round } from "./context.ts";

/** What {@linkcode Wire} needs of the run: its reporter, and how events are masked. */
export interface WireContext {
  reporter: Reporter;
  redactor: Redactor;
  /** Events hold raw values: their reader masks them (`RunOptions.rawEvents`). */
  rawEvents?: boolean;
}

const encoder = new TextEncoder();

/**
 * One step attempt's requests on the wire, told to `onExchange` as each is
 * answered: the first request, each redirect hop, then the final response
 * or the failure.
 *
 * @example
 * ```ts
 * import { Wire } from "./exchange.ts";
 * import { Redactor } from "../secrets/redactor.ts";
 * import { ReceivedResponse } from "../http/response.ts";
 * const seen: number[] = [];
 * const reporter = { onExchange: (_f: unknown, e: { response?: { status: number } }) => void seen.push(e.response!.status) };
 * const ctx = { reporter, redactor: new Redactor() };
 * const wire = new Wire(ctx, { file: "a.yaml", name: "a" }, "get", 1, { method: "GET", url: "http://x.test/", headers: [] });
 * await wire.answered(new ReceivedResponse(302, { location: "/y" }, ""), { method: "GET", url: "http://x.test/y", headers: [] });
 * await wire.answered(new ReceivedResponse(200, {}, "ok"));
 * if (seen.join() !== "302,200") throw new Error(seen.join());
 * ```
 */
export class Wire {
  #request: ResolvedRequest;
  #sent = performance.now();
  #startedAt = new Date();

  /**
   * The first request of attempt `attempt` of step `step`, about to be sent,
   * or sent at `sentAt` (`performance.now()`) by a step kind, whose request
   * is known once its call ended.
   */
  constructor(
    readonly ctx: WireContext,
    readonly flow: FlowRef,
    readonly step: string,
    readonly attempt: number,
    request: ResolvedRequest,
    sentAt?: number,
  ) {
    this.#request = request;
    if (sentAt !== undefined) {
      this.#sent = sentAt;
      this.#startedAt = new Date(Date.now() - (performance.now() - sentAt));
    }
  }

  /**
   * Tells what answered the request on the wire; `next` is the request a
   * redirect sends next (the same object `send` sends, changed in place by
   * the hop's cookies and credentials), timed from now.
   */
  async answered(response: ReceivedResponse, next?: ResolvedRequest): Promise<void> {
    await this.#tell({ response: responseOf(response) }, next);
  }

  /** Tells that no response arrived, and why. */
  async failed(error: string): Promise<void> {
    await this.#tell({ error });
  }

  async #tell(outcome: Pick<Exchange, "response" | "error">, next?: ResolvedRequest) {
    const now = performance.now();
    const exchange: Exchange = {
      step: this.step,
      attempt: this.attempt,
      started_at: this.#startedAt.toISOString(),
      duration_ms: round(now - this.#sent),
      request: requestOf(this.#request),
      ...outcome,
    };
    if (next) {
      this.#request = next;
      this.#sent = now;
      this.#startedAt = new Date();
    }
    const { reporter, rawEvents, redactor } = this.ctx;
    await reporter.onExchange?.(this.flow, rawEvents ? exchange : redactor.redactValue(exchange));
  }
}

/** A request as an exchange holds it: headers copied (a hop changes them in place). */
function requestOf(request: ResolvedRequest): Exchange["request"] {
  const { body, payload } = request;
  // A file body is sent as its bytes, a multipart one as parts the client frames: `body` only
  // says what they are, and a multipart body's size is known to the client alone (-1).
  const size = payload instanceof Uint8Array
    ? payload.byteLength
    : payload !== undefined
    ? -1
    : body === undefined
    ? 0
    : sizeOf(body);
  return {
    method: request.method,
    url: request.url,
    headers: request.headers.map(([name, value]) => [name, value]),
    ...(body === undefined ? {} : { body: cut(body) }),
    size,
    ...(request.bodyKind ? { kind: request.bodyKind } : {}),
  };
}

function responseOf(response: ReceivedResponse): NonNullable<Exchange["response"]> {
  const { "set-cookie": _, ...headers } = response.headers;
  const spilled = response.spilled;
  return {
    status: response.status,
    headers,
    set_cookies: [...response.setCookies],
    body: cut(spilled ? spilled.head : response.text),
    size: spilled ? spilled.bytes : bodySize(response),
  };
}

/**
 * The body's size in bytes: its text's in UTF-8, unless bytes UTF-8 could
 * not decode became U+FFFD (a binary body), whose count tells nothing of
 * theirs: then the `content-length` of a body sent as it is, else -1.
 */
function bodySize(response: ReceivedResponse): number {
  if (!response.text.includes("\ufffd")) return sizeOf(response.text);
  const { "content-length": length, "content-encoding": encoding } = response.headers;
  return length !== undefined && !encoding && /^\d+$/.test(length) ? Number(length) : -1;
}

/** The body's first {@linkcode MAX_BODY} characters. */
function cut(text: string): string {
  return text.length > MAX_BODY ? text.slice(0, MAX_BODY) : text;
}

/** UTF-8 bytes of `text`, counted without encoding a copy when it is ASCII. */
function sizeOf(text: string): number {
  // deno-lint-ignore no-control-regex
  return /^[\x00-\x7f]*$/.test(text) ? text.length : encoder.encode(text).byteLength;
}

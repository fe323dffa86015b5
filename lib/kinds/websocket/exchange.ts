/**
 * One connection's life, from the handshake to the end of receiving, as one
 * {@linkcode Ending}: refused (the server answered the upgrade with another
 * status), failed (no connection, TLS, a deadline, too many bytes, an
 * interrupt), or received (the messages that arrived and why receiving
 * stopped). Every way out is bounded: the step's deadline, `wait`, `count`,
 * the bytes, the run's signal.
 *
 * @module
 */
import { type CompiledPath, select } from "../../expr/path.ts";
import { connectFailure } from "./failure.ts";
import { ownWords, type Told, told } from "../../model/told.ts";
import type { ClientSocket, HandshakeResponse } from "./socket.ts";
import { type Received, Receiver, type StopRule } from "./receiver.ts";

/** How a connection ended. */
export type Ending =
  | { kind: "failed"; reason: string; message: string | Told }
  | { kind: "refused"; body: string } & Head
  | { kind: "received" } & Head & Received;

/** The handshake's answer: status, headers, and its `set-cookie` lines for a cookie jar. */
interface Head {
  status: number;
  headers: Record<string, string>;
  setCookies: string[];
}

/**
 * A message to send, and when it goes: once `after` messages have arrived,
 * or once a message received since the one before it was sent made
 * `after.message` hold.
 */
export interface Outgoing {
  data: string | Uint8Array;
  after: number | { message: CompiledPath };
}

/** What bounds the exchange. */
export interface ExchangeLimits extends StopRule {
  /** The URL connected to, for messages. */
  url: string;
  /** The step's deadline for the whole attempt, ms. */
  timeoutMs: number;
  /** The receive window once open, ms (`wait`, else the deadline). */
  waitMs: number;
  signal?: AbortSignal;
}

/**
 * Runs the exchange on a socket just made: sends `messages` in order once it
 * opens, each when its `after` is met, receives until a rule
 * of `limits` stops it, and closes the connection.
 *
 * @example
 * ```ts
 * import { exchange } from "./exchange.ts";
 * if (typeof exchange !== "function") throw new Error();
 * ```
 */
export function exchange(
  socket: ClientSocket,
  messages: Outgoing[],
  limits: ExchangeLimits,
): Promise<Ending> {
  return new Promise((resolve) => new Exchange(socket, messages, limits, resolve).start());
}

class Exchange {
  #timers: ReturnType<typeof setTimeout>[] = [];
  #settled = false;
  /** The next message of `messages` to send. */
  #next = 0;
  /** Whether the message the next one waits for arrived since the one before it was sent. */
  #answered = false;
  #head: Head = { status: 101, headers: {}, setCookies: [] };
  #receiver: Receiver;

  constructor(
    private socket: ClientSocket,
    private messages: Outgoing[],
    private limits: ExchangeLimits,
    private resolve: (ending: Ending) => void,
  ) {
    this.#receiver = new Receiver(
      limits,
      (received) => this.#finish(received),
      (message) => this.#arrived(message),
    );
  }

  start(): void {
    const { socket, limits } = this;
    // Listeners first: dropping a socket still connecting makes it emit an error, which needs one.
    socket.on(
      "upgrade",
      (res) => this.#head = headOf(res, 101),
    );
    socket.on("unexpected-response", (_, res) => this.#refused(res));
    socket.on("open", () => this.#open());
    socket.on("message", (data, binary) => this.#receiver.message(data, binary));
    socket.on("close", (code, reason) => this.#closed(code, new TextDecoder().decode(reason)));
    socket.on("error", (error) => this.#error(error));
    if (limits.signal?.aborted) return this.#abort();
    limits.signal?.addEventListener("abort", this.#abort, { once: true });
    this.#after(
      limits.timeoutMs,
      () =>
        this.#receiver.opened ? this.#receiver.stop("timeout") : this.#fail(
          "timeout",
          ownWords(`The connection did not open within ${seconds(limits.timeoutMs)}.`),
        ),
    );
  }

  #abort = () => this.#fail("interrupted", ownWords("The run was interrupted."));

  #open(): void {
    this.#receiver.open();
    this.#after(this.limits.waitMs, () => this.#receiver.stop("wait"));
    this.#flush();
  }

  /** A message arrived: it may be the one the next message waits for, which is then due. */
  #arrived(message: unknown): void {
    const after = this.messages[this.#next]?.after;
    if (typeof after === "object" && select(after.message, [message]).found) this.#answered = true;
    this.#flush();
  }

  /** Sends the messages now due: in order, each once its `after` is met. */
  #flush(): void {
    const { messages } = this;
    while (this.#next < messages.length && this.#due(messages[this.#next])) {
      const { data } = messages[this.#next++];
      this.#answered = false;
      this.socket.send(data, { binary: typeof data !== "string" }, () => {});
    }
  }

  #due({ after }: Outgoing): boolean {
    return typeof after === "number" ? this.#receiver.count >= after : this.#answered;
  }

  #closed(code: number, reason: string): void {
    if (this.#receiver.opened) return this.#receiver.closed(code, reason);
    // The close code is the server's: a value of the message.
    this.#fail("network", told`The connection closed before it opened (code ${code}).`);
  }

  #error(error: Error & { code?: string }): void {
    if (error.code === "WS_ERR_UNSUPPORTED_MESSAGE_LENGTH") {
      return this.#fail("body-too-large", tooLarge(this.limits.maxBytes));
    }
    this.#fail("network", connectFailure(error, this.limits.url));
  }

  #refused(res: HandshakeResponse): void {
    const head = headOf(res, 0);
    const chunks: Uint8Array[] = [];
    let bytes = 0;
    const done = () => {
      if (this.#settled) return;
      const body = new TextDecoder().decode(concat(chunks));
      this.#settle({ kind: "refused", ...head, body });
    };
    res.on("data", (chunk) => {
      bytes += chunk.length;
      if (bytes > this.limits.maxBytes) {
        return this.#fail("body-too-large", tooLarge(this.limits.maxBytes));
      }
      chunks.push(chunk);
    });
    res.on("end", done);
    res.on("close", done);
    res.on("error", done);
  }

  #finish(received: Received): void {
    if (received.bytesOver) return this.#fail("body-too-large", tooLarge(this.limits.maxBytes));
    this.#settle({ kind: "received", ...this.#head, ...received });
  }

  /**
   * Ends with a failure said as flowrun's words and the values it quotes (the host, the runtime's
   * words, a close code), masked where the step shows it; a limit or a time is flowrun's own.
   */
  #fail(reason: string, message: Told): void {
    this.#settle({ kind: "failed", reason, message });
  }

  #settle(ending: Ending): void {
    if (this.#settled) return;
    this.#settled = true;
    for (const timer of this.#timers) clearTimeout(timer);
    this.limits.signal?.removeEventListener("abort", this.#abort);
    // The server's own close needs no answer; otherwise say goodbye, then drop the connection.
    if (ending.kind === "received" && ending.close !== null) this.resolve(ending);
    else closeThen(this.socket, ending.kind === "received", () => this.resolve(ending));
  }

  #after(ms: number, then: () => void): void {
    this.#timers.push(setTimeout(then, ms));
  }
}

/** Closes politely (1000) when asked, waiting at most a little for the server's answer; else drops it. */
function closeThen(socket: ClientSocket, polite: boolean, then: () => void): void {
  if (!polite) {
    socket.terminate();
    return then();
  }
  const timer = setTimeout(() => {
    socket.terminate();
    then();
  }, CLOSE_GRACE_MS);
  socket.on("close", () => {
    clearTimeout(timer);
    then();
  });
  socket.close(1000);
}

/** How long a polite close waits for the server's close frame before dropping the connection. */
const CLOSE_GRACE_MS = 1_000;

function tooLarge(max: number): Told {
  return ownWords(
    `The messages received came to more than ${max} bytes, the most a response may hold; ` +
      `raise --max-body or receive fewer (count, until).`,
  );
}

/** A handshake response's status (`fallback` when it has none), headers and cookies. */
function headOf(res: HandshakeResponse, fallback: number): Head {
  const cookies = res.headers["set-cookie"];
  const setCookies = cookies === undefined ? [] : Array.isArray(cookies) ? cookies : [cookies];
  return { status: res.statusCode ?? fallback, headers: flat(res), setCookies };
}

/** Response headers as one string each (`set-cookie` lines joined with ", "). */
function flat(res: HandshakeResponse): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(res.headers)) {
    if (value !== undefined) {
      out[name.toLowerCase()] = Array.isArray(value) ? value.join(", ") : value;
    }
  }
  return out;
}

function concat(chunks: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}

/**
 * A duration in words: `5 s`, `250 ms`.
 *
 * @example
 * ```ts
 * import { seconds } from "./exchange.ts";
 * if (seconds(5000) !== "5 s" || seconds(250) !== "250 ms" || seconds(1500) !== "1.5 s") throw new Error();
 * ```
 */
export function seconds(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${Math.round(ms / 100) / 10} s`;
}

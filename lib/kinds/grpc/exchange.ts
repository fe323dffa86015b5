/**
 * One gRPC call on the wire, whatever its shape: every call is an HTTP/2
 * stream carrying request messages one way and response messages the
 * other, so one bidirectional call serves unary, server-streaming,
 * client-streaming and bidirectional methods alike (the server holds each
 * side to its count). What comes back is bounded: the messages counted
 * (`max_messages`), their bytes together (`maxBytes`; grpc-js refuses a
 * single larger message itself), the whole call by its deadline, and an
 * abort cancels it at once.
 *
 * @module
 */
import * as grpc from "@grpc/grpc-js";
import type { MethodCodec } from "./method.ts";

/** Why flowrun stopped a call before the server ended it. */
export type StopReason = "max_messages" | "too-large" | "decode" | "interrupted";

/** What one call brought: the server's headers, its messages, its status, or why it was stopped. */
export interface Exchange {
  headers?: grpc.Metadata;
  messages: unknown[];
  status: grpc.StatusObject;
  stopped?: StopReason;
  /** protobufjs's message when a response message did not decode. */
  decodeError?: string;
  /** The bytes of the response messages. */
  bytes: number;
}

/** What a call is given besides its client. */
export interface ExchangeOptions {
  codec: MethodCodec;
  /** Encoded-ready request messages, sent in order. */
  messages: readonly unknown[];
  metadata: readonly [string, string][];
  deadline: Date;
  maxMessages: number;
  maxBytes: number;
  signal?: AbortSignal;
}

/**
 * Runs one call to its end or to a bound.
 *
 * @example
 * ```ts
 * import { exchange } from "./exchange.ts";
 * if (typeof exchange !== "function") throw new Error();
 * ```
 */
export function exchange(client: grpc.Client, options: ExchangeOptions): Promise<Exchange> {
  const { codec, signal } = options;
  const metadata = new grpc.Metadata();
  for (const [name, value] of options.metadata) metadata.add(name, value);
  const got: Omit<Exchange, "status"> = { messages: [], bytes: 0 };
  return new Promise((resolve) => {
    // Raw bytes in, decoded here: a message that does not decode is told, not turned into INTERNAL.
    const call = client.makeBidiStreamRequest(
      codec.path,
      (value: unknown) => Buffer.from(codec.encode(value)),
      (bytes: Buffer) => bytes,
      metadata,
      { deadline: options.deadline },
    );
    const stop = (why: StopReason) => {
      got.stopped ??= why;
      call.cancel();
    };
    const onAbort = () => stop("interrupted");
    if (signal?.aborted) onAbort();
    signal?.addEventListener("abort", onAbort, { once: true });
    call.on("metadata", (headers: grpc.Metadata) => got.headers = headers);
    call.on("data", (bytes: Buffer) => received(bytes, got, options, stop));
    // The status event ends every call; an error event repeats it for a non-OK status.
    call.on("error", () => {});
    call.on("status", (status: grpc.StatusObject) => {
      signal?.removeEventListener("abort", onAbort);
      resolve({ ...got, status });
    });
    for (const message of options.messages) call.write(message);
    call.end();
  });
}

function received(
  bytes: Buffer,
  got: Omit<Exchange, "status">,
  options: ExchangeOptions,
  stop: (why: StopReason) => void,
): void {
  if (got.stopped) return;
  if (got.messages.length >= options.maxMessages) return stop("max_messages");
  got.bytes += bytes.length;
  if (got.bytes > options.maxBytes) return stop("too-large");
  try {
    got.messages.push(options.codec.decode(bytes));
  } catch (error) {
    got.decodeError = (error as Error).message;
    stop("decode");
  }
}

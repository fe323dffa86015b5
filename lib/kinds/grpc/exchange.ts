/**
 * One gRPC call on the wire, whatever its shape: every call is an HTTP/2
 * stream carrying request messages one way and response messages the
 * other, so one bidirectional call serves server-streaming,
 * client-streaming and bidirectional methods alike (the server holds each
 * side to its count); a unary method takes grpc-js's lighter unary call. What comes back is bounded: the messages counted
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
  /** The request messages encoded, sent in order. */
  messages: readonly Buffer[];
  metadata: readonly [string, string][];
  /** When the call must end, in ms since the epoch. */
  deadline: number;
  maxMessages: number;
  maxBytes: number;
  signal?: AbortSignal;
}

/**
 * Request metadata from rendered pairs: a `-bin` name's value (base64,
 * checked before) as its bytes, grpc-js's way of sending binary metadata.
 *
 * @example
 * ```ts
 * import { metadataOf } from "./exchange.ts";
 * const m = metadataOf([["x-trace-bin", "AAEC/w=="], ["x-id", "7"]]);
 * if ((m.get("x-trace-bin")[0] as Uint8Array)[3] !== 255 || m.get("x-id")[0] !== "7") throw new Error();
 * ```
 */
export function metadataOf(pairs: readonly (readonly [string, string])[]): grpc.Metadata {
  const metadata = new grpc.Metadata();
  for (const [name, value] of pairs) {
    metadata.add(name, name.endsWith("-bin") ? Buffer.from(value, "base64") : value);
  }
  return metadata;
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
  const { signal } = options;
  const metadata = metadataOf(options.metadata);
  const got: Omit<Exchange, "status"> = { messages: [], bytes: 0 };
  return new Promise((resolve) => {
    const call = start(client, options, metadata, (bytes) => received(bytes, got, options, stop));
    const stop = (why: StopReason) => {
      got.stopped ??= why;
      call.cancel();
    };
    const onAbort = () => stop("interrupted");
    if (signal?.aborted) onAbort();
    signal?.addEventListener("abort", onAbort, { once: true });
    call.on("metadata", (headers: grpc.Metadata) => got.headers = headers);
    call.on("status", (status: grpc.StatusObject) => {
      signal?.removeEventListener("abort", onAbort);
      resolve({ ...got, status });
    });
  });
}

/**
 * The call started: a unary method as grpc-js's unary call (its lighter
 * path: half the CPU of a stream per call, bench/grpc.ts), every other
 * shape as a bidirectional stream with the messages written and the
 * sending side closed. Raw bytes come back, decoded by the caller: a
 * message that does not decode is told, not turned into INTERNAL.
 */
function start(
  client: grpc.Client,
  options: ExchangeOptions,
  metadata: grpc.Metadata,
  onMessage: (bytes: Buffer) => void,
): grpc.ClientUnaryCall | grpc.ClientDuplexStream<Buffer, Buffer> {
  const { codec } = options;
  const callOptions = { deadline: options.deadline };
  if (!codec.requestStream && !codec.responseStream) {
    // The callback comes before the status event, so the message is in before the outcome is made.
    return client.makeUnaryRequest(
      codec.path,
      raw,
      raw,
      options.messages[0],
      metadata,
      callOptions,
      (error, bytes) => error || !bytes ? undefined : onMessage(bytes),
    );
  }
  const call = client.makeBidiStreamRequest(codec.path, raw, raw, metadata, callOptions);
  call.on("data", onMessage);
  // The status event ends every call; an error event repeats it for a non-OK status.
  call.on("error", () => {});
  for (const message of options.messages) call.write(message);
  call.end();
  return call;
}

/** Messages go out as encoded and come in as they arrive: the caller encodes and decodes. */
const raw = (bytes: Buffer) => bytes;

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

/**
 * One server reflection stream (`ServerReflectionInfo`, bidirectional): a
 * question is written, its answer is the next message the server sends. The
 * stream is bounded by bytes (every answer counted, each one refused by gRPC
 * past the bound), by a deadline, and by the caller's signal; each way it
 * ends becomes one {@linkcode ReflectionError} sentence naming the server.
 *
 * @module
 */
import { around, joined, ownWords, told } from "../../model/told.ts";
import { Buffer } from "node:buffer";
import * as grpc from "@grpc/grpc-js";
import { formatDuration } from "../../_util/duration.ts";
import { ReflectionError } from "./reflection_error.ts";
import {
  decodeResponse,
  encodeRequest,
  type ReflectionRequest,
  type ReflectionResponse,
} from "./reflection_messages.ts";

/** What bounds a stream, and what it sends with its headers. */
export interface StreamLimits {
  /** `host:port`, for messages. */
  target: string;
  /** The most bytes all answers together may hold. */
  maxBytes: number;
  /** The time allowed in ms (for messages), and the deadline it makes (epoch ms). */
  deadlineMs: number;
  deadline: number;
  signal?: AbortSignal;
  metadata?: grpc.Metadata;
}

interface Waiter {
  resolve(answer: ReflectionResponse): void;
  reject(error: ReflectionError): void;
}

// gRPC frames each message with five bytes: count them, so that a flood of
// empty answers is bounded too.
const FRAME = 5;

/**
 * A reflection stream: {@linkcode ReflectionStream.ask} one question at a
 * time, {@linkcode ReflectionStream.close} when done.
 *
 * @example
 * ```ts
 * import * as grpc from "@grpc/grpc-js";
 * import { ReflectionStream } from "./reflection_stream.ts";
 * import { ReflectionError } from "./reflection_error.ts";
 * // Port 1 on the loopback refuses connections.
 * const client = new grpc.Client("127.0.0.1:1", grpc.credentials.createInsecure());
 * const limits = { target: "127.0.0.1:1", maxBytes: 1024, deadlineMs: 5000, deadline: Date.now() + 5000 };
 * const stream = new ReflectionStream(client, "/grpc.reflection.v1.ServerReflection/ServerReflectionInfo", limits);
 * try {
 *   await stream.ask({ listServices: "" });
 *   throw new Error("port 1 answered");
 * } catch (error) {
 *   if (!(error instanceof ReflectionError) || error.code !== "unreachable") throw error;
 * } finally {
 *   stream.close();
 *   client.close();
 * }
 * ```
 */
export class ReflectionStream {
  readonly #call: grpc.ClientDuplexStream<Uint8Array, ReflectionResponse>;
  readonly #limits: StreamLimits;
  readonly #answers: ReflectionResponse[] = [];
  readonly #waiters: Waiter[] = [];
  #bytes = 0;
  #failure?: ReflectionError;
  #onAbort = () => this.#fail(interrupted(this.#limits.target));

  /** Opens the stream on `client` at `method` (a path of {@linkcode REFLECTION_METHODS}). */
  constructor(client: grpc.Client, method: string, limits: StreamLimits) {
    this.#limits = limits;
    this.#call = client.makeBidiStreamRequest(
      method,
      (bytes: Uint8Array) => Buffer.from(bytes),
      (bytes: Buffer) => this.#decode(bytes),
      limits.metadata?.clone() ?? new grpc.Metadata(),
      { deadline: limits.deadline },
    );
    this.#call.on("data", (answer: ReflectionResponse) => this.#answer(answer));
    this.#call.on("error", (error: grpc.ServiceError) => this.#fail(statusError(error, limits)));
    this.#call.on("status", (status: grpc.StatusObject) => {
      if (status.code === grpc.status.OK) this.#fail(endedEarly(limits.target));
    });
    limits.signal?.addEventListener("abort", this.#onAbort, { once: true });
    if (limits.signal?.aborted) this.#onAbort();
  }

  /** The next answer to `request`; rejects with a {@linkcode ReflectionError}. */
  ask(request: ReflectionRequest): Promise<ReflectionResponse> {
    if (this.#failure) return Promise.reject(this.#failure);
    const promise = new Promise<ReflectionResponse>((resolve, reject) => {
      this.#waiters.push({ resolve, reject });
    });
    this.#call.write(encodeRequest(request));
    this.#flush();
    return promise;
  }

  /** Ends the stream (the server is told, the call cancelled if it goes on). */
  close(): void {
    this.#limits.signal?.removeEventListener("abort", this.#onAbort);
    this.#failure ??= endedEarly(this.#limits.target);
    this.#call.end();
    this.#call.cancel();
  }

  #decode(bytes: Buffer): ReflectionResponse {
    this.#bytes += bytes.length + FRAME;
    if (this.#bytes > this.#limits.maxBytes) {
      throw this.#fail(tooLarge(this.#limits.target, this.#limits.maxBytes));
    }
    try {
      return decodeResponse(bytes);
    } catch (cause) {
      const message = joined(
        told`The server at ${this.#limits.target} answered server reflection with `,
        told`a message that is not a ServerReflectionResponse (${(cause as Error).message}).`,
      );
      throw this.#fail(new ReflectionError("reflection-failed", message, { cause }));
    }
  }

  #answer(answer: ReflectionResponse): void {
    this.#answers.push(answer);
    this.#flush();
  }

  #flush(): void {
    while (this.#answers.length > 0 && this.#waiters.length > 0) {
      this.#waiters.shift()!.resolve(this.#answers.shift()!);
    }
  }

  /** Records the first way the stream failed, rejects every question still waiting, ends the call. */
  #fail(error: ReflectionError): ReflectionError {
    this.#failure ??= error;
    for (const waiter of this.#waiters.splice(0)) waiter.reject(this.#failure);
    this.#call.cancel();
    return this.#failure;
  }
}

function interrupted(target: string): ReflectionError {
  return new ReflectionError(
    "interrupted",
    told`Server reflection at ${target} stopped because the run was interrupted.`,
  );
}

function endedEarly(target: string): ReflectionError {
  return new ReflectionError(
    "reflection-failed",
    told`The server at ${target} ended the server reflection stream before answering.`,
  );
}

function tooLarge(target: string, maxBytes: number): ReflectionError {
  return new ReflectionError(
    "too-large",
    around(
      "The server at ",
      told`${target}`,
      ` sent more than ${maxBytes} bytes of server reflection answers; raise the limit or ` +
        "name the .proto files with proto:.",
    ),
  );
}

/** A gRPC status that ended the stream, as a sentence naming the server. */
function statusError(error: grpc.ServiceError, limits: StreamLimits): ReflectionError {
  const { target } = limits;
  const name = grpc.status[error.code] ?? String(error.code);
  const details = error.details || error.message;
  switch (error.code) {
    case grpc.status.UNIMPLEMENTED:
      return new ReflectionError(
        "no-reflection",
        told`The server at ${target} does not offer server reflection (UNIMPLEMENTED); name the .proto files with proto:.`,
        { cause: error },
      );
    case grpc.status.UNAVAILABLE:
      return new ReflectionError(
        "unreachable",
        told`The server at ${target} could not be reached for server reflection: ${details}.`,
        { cause: error },
      );
    case grpc.status.DEADLINE_EXCEEDED:
      return new ReflectionError(
        "timeout",
        around(
          "The server at ",
          told`${target}`,
          ` did not finish server reflection within ${
            formatDuration(limits.deadlineMs)
          } (DEADLINE_EXCEEDED).`,
        ),
        { cause: error },
      );
    case grpc.status.RESOURCE_EXHAUSTED:
      // grpc-js's own refusal of one answer past the bound; a server's
      // RESOURCE_EXHAUSTED (a quota) keeps its words below.
      if (/larger than max/i.test(details)) {
        return tooLarge(target, limits.maxBytes);
      }
    // falls through
    default:
      return new ReflectionError(
        "reflection-failed",
        // The status's name is flowrun's word for its code; its details are the server's.
        joined(
          told`The server at ${target} ended server reflection with `,
          ownWords(`${name}: `),
          told`${details}.`,
        ),
        { cause: error },
      );
  }
}

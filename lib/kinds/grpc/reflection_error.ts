/**
 * Why server reflection gave no definition, as a typed error with a sentence
 * that names the server and says what to do.
 *
 * @module
 */

import { tell, type Told, told } from "../../model/told.ts";

/** What went wrong, stable and kebab-case. */
export type ReflectionErrorCode =
  /** The server answered UNIMPLEMENTED to both reflection versions. */
  | "no-reflection"
  /** The server knows no service of that name (or the name is a message). */
  | "unknown-symbol"
  /** No connection (refused, no route, TLS handshake failed). */
  | "unreachable"
  /** The deadline passed before reflection finished. */
  | "timeout"
  /** The caller's signal aborted (SIGINT, `--fail-fast`). */
  | "interrupted"
  /** The descriptors together, or one answer, passed the byte bound. */
  | "too-large"
  /** More files than the bound: a never-ending list of imports. */
  | "too-many-files"
  /** A file descriptor that does not decode, or files that do not make a definition. */
  | "bad-descriptor"
  /** A file another one imports that the server does not send. */
  | "missing-file"
  /** Anything else the server answered (an error status, an answer of the wrong type). */
  | "reflection-failed";

/**
 * Server reflection failed. `message` is one sentence naming the server
 * (`The server at 127.0.0.1:50051 does not offer server reflection
 * (UNIMPLEMENTED); name the .proto files with proto:`); `code` says what
 * failed; `reason` is the runner's word for it (`timeout`, `interrupted`,
 * `body-too-large`, or `network` for everything the server side did), so a
 * step may report and retry it like an HTTP request error.
 *
 * @example
 * ```ts
 * import { ReflectionError } from "./reflection_error.ts";
 * import { told } from "../../model/told.ts";
 * const error = new ReflectionError("timeout", "The server at h:1 did not answer.");
 * if (error.reason !== "timeout" || !(error instanceof Error)) throw error;
 * if (new ReflectionError("unknown-symbol", "x").reason !== "network") throw error;
 * if (new ReflectionError("timeout", told`At ${"h:1"}.`).told.values[0] !== "h:1") throw error;
 * ```
 */
export class ReflectionError extends Error {
  /** What failed. */
  readonly code: ReflectionErrorCode;
  /**
   * The message as flowrun's words and the values it quotes (the target, the service asked for,
   * what the server said), masked where a step shows it: a short password never masks a word.
   */
  readonly told: Told;

  /** Creates the error; `cause` keeps the gRPC or protobufjs error for debugging. */
  constructor(code: ReflectionErrorCode, message: string | Told, options?: { cause?: unknown }) {
    super(typeof message === "string" ? message : tell(message), { cause: options?.cause });
    this.name = "ReflectionError";
    this.code = code;
    this.told = typeof message === "string" ? told`${message}` : message;
    // Whoever prints it as a crash still prints one line.
    this.stack = `${this.name}: ${this.message}`;
  }

  /** The runner's reason for an attempt with no answer. */
  get reason(): "timeout" | "interrupted" | "body-too-large" | "network" {
    if (this.code === "timeout" || this.code === "interrupted") return this.code;
    return this.code === "too-large" ? "body-too-large" : "network";
  }
}

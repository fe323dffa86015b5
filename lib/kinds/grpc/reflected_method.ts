/**
 * The method of a step that names no `.proto` files, from the server's
 * reflection service ({@linkcode reflectedRoot}), asked once per target,
 * service and settings in a process and kept: the next attempts and steps
 * reuse it. The server's files become a protobufjs `Root` equal to the same
 * `.proto` files parsed, and the method's codec is made by
 * {@linkcode findMethod} as for a step naming them, so both read and write
 * messages alike (a Timestamp as RFC 3339 text, not `{seconds, nanos}`).
 * Reflection asks on the call's own client: through its proxy tunnel, with
 * its TLS settings and connection.
 *
 * @module
 */
import type * as grpc from "@grpc/grpc-js";
import type { KindOutcome } from "../kind.ts";
import { findMethod, type MethodCodec } from "./method.ts";
import { reflectedRoot, ReflectionError } from "./reflection.ts";

/** The most definitions kept; the oldest is dropped beyond it. */
const MAX_KEPT = 64;

const kept = new Map<string, Promise<MethodCodec | string>>();

/** What asking the server needs. */
export interface ReflectionAsk {
  address: string;
  method: string;
  /** The client the call goes on, asked on too. */
  client: grpc.Client;
  /** A key for the settings the client was made with. */
  settings: string;
  deadlineMs: number;
  maxBytes: number;
  metadata: grpc.Metadata;
  signal?: AbortSignal;
}

/**
 * The method as the server describes it, or the outcome's error (a
 * sentence from reflection) when it cannot be had. A failed ask is not
 * kept, so a retry asks again.
 *
 * @example
 * ```ts
 * import { reflectedMethod } from "./reflected_method.ts";
 * if (typeof reflectedMethod !== "function") throw new Error();
 * ```
 */
export async function reflectedMethod(
  ask: ReflectionAsk,
): Promise<MethodCodec | NonNullable<KindOutcome["error"]>> {
  const service = ask.method.replace(/^[./]+/, "").replace(/[/.][^/.]*$/, "");
  const key = JSON.stringify([ask.address, service, ask.method, ask.settings]);
  let pending = kept.get(key);
  if (!pending) {
    pending = reflectedRoot(ask.address, service, {
      client: ask.client,
      deadlineMs: ask.deadlineMs,
      signal: ask.signal,
      metadata: ask.metadata,
      maxBytes: ask.maxBytes,
    }).then((root) => findMethod(root, ask.method));
    if (kept.size >= MAX_KEPT) kept.delete(kept.keys().next().value!);
    kept.set(key, pending);
  }
  try {
    const got = await pending;
    if (typeof got === "string") return { reason: "bad-url", message: got };
    return got;
  } catch (error) {
    kept.delete(key);
    // Told: the target, the service and the server's words are values, the rest flowrun's.
    if (error instanceof ReflectionError) return { reason: error.reason, message: error.told };
    throw error;
  }
}

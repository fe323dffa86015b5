/**
 * What a `grpc:` step holds once read ({@linkcode GrpcSpec}) and its
 * bounds.
 *
 * @module
 */
import type { Template, ValueTemplate } from "../../model/template.ts";
import type protobuf from "protobufjs";
import type { MethodCodec } from "./method.ts";

/** Messages a stream may bring when the step does not say (`max_messages`). */
export const DEFAULT_MAX_MESSAGES = 1000;

/** The most `max_messages` may be. */
export const MAX_MESSAGES = 100_000;

/** A `grpc:` step read and checked. */
export interface GrpcSpec {
  /** `host:port`, `grpc://…` or `grpcs://…`; may hold `${…}`. */
  target: Template;
  /** `tls: true`: TLS even for a `host:port` target. */
  tls: boolean;
  /** `package.Service/Method` as written. */
  method: string;
  /** The method from the step's `.proto` files; absent when it comes from server reflection. */
  codec?: MethodCodec;
  /**
   * The root the step's `.proto` files (and their imports) parsed into, with
   * `codec`: `flowrun export artillery` writes it beside the script for the
   * processor's call. The run reads `codec` only.
   */
  root?: protobuf.Root;
  /** The one request message (unary, server-streaming). */
  message?: ValueTemplate;
  /** The request messages (client-streaming, bidirectional), sent in order. */
  messages?: ValueTemplate;
  /** Request metadata, lower-case names. */
  metadata: [string, Template][];
  /** The most messages a stream may bring before the call is cancelled. */
  maxMessages: number;
}

/**
 * Whether a value holds no `${…}`, so it can be checked when the flow is loaded.
 *
 * @example
 * ```ts
 * import { constantValue } from "./spec.ts";
 * if (!constantValue({ kind: "list", items: [{ kind: "const", value: 1 }] })) throw new Error();
 * ```
 */
export function constantValue(value: ValueTemplate): boolean {
  switch (value.kind) {
    case "const":
      return true;
    case "template":
      return false;
    case "list":
      return value.items.every(constantValue);
    case "map":
      return value.entries.every(([, v, key]) => key === undefined && constantValue(v));
  }
}

/**
 * The `grpc:` step kind: a gRPC call — unary, server-streaming,
 * client-streaming or bidirectional, over h2c or TLS — described by `.proto`
 * files or by server reflection, checked and captured like an HTTP step's
 * response: `status` the gRPC status code, headers the response metadata
 * and trailers, `$.json` the response message (or the list of a stream's
 * messages) in the proto3 JSON mapping. See docs/grpc.md.
 *
 * @module
 */
import type { StepKind } from "../kind.ts";
import { grpcAttempt } from "./attempt.ts";
import { GRPC_KEYS, readGrpc } from "./read.ts";
import { GRPC_SCHEMA } from "./schema.ts";
import type { GrpcSpec } from "./spec.ts";

export type { GrpcSpec } from "./spec.ts";

/**
 * The gRPC step kind.
 *
 * @example
 * ```ts
 * import { GRPC } from "./mod.ts";
 * if (GRPC.key !== "grpc" || !GRPC.keys.includes("method")) throw new Error();
 * ```
 */
export const GRPC: StepKind<GrpcSpec> = {
  key: "grpc",
  what: "a gRPC call",
  keys: GRPC_KEYS,
  required: ["target", "method"],
  read: (map, reading) => readGrpc(map, reading),
  attempt: (spec, call) => grpcAttempt(spec, call),
  schema: GRPC_SCHEMA,
  docs: "docs/grpc.md",
};

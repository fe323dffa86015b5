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
import { GRPC_KEYS, readGrpc } from "./read.ts";
import { GRPC_SCHEMA } from "./schema.ts";
import type { GrpcSpec } from "./spec.ts";

export type { GrpcSpec } from "./spec.ts";

let attemptModule: Promise<typeof import("./attempt.ts")> | undefined;

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
  // grpc-js takes 60-200 ms to evaluate: a run without a grpc: step should not pay for it.
  attempt: async (spec, call) =>
    (await (attemptModule ??= import("./attempt.ts"))).grpcAttempt(spec, call),
  schema: GRPC_SCHEMA,
  docs: "docs/grpc.md",
};

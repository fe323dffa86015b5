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
import { type OnDemand, onDemand } from "../../_util/on_demand.ts";
import type { StepKind } from "../kind.ts";
import { GRPC_SCHEMA } from "./schema.ts";
import type { GrpcSpec } from "./spec.ts";

export type { GrpcSpec } from "./spec.ts";

let attemptModule: Promise<typeof import("./attempt.ts")> | undefined;

/**
 * The gRPC kind's reader, loaded when a flow first holds a `grpc:` step: it
 * parses `.proto` files with protobufjs, 40 to 100 ms to load, which a run
 * without a gRPC step should not pay. Until then reading throws
 * `ModuleNeeded`, and the loader (`withEngines`) loads it and reads again;
 * code that calls `loadFlow` itself awaits `grpcReader.load()` first.
 *
 * @example
 * ```ts
 * import { grpcReader } from "./mod.ts";
 * const reader = await grpcReader.load();
 * if (typeof reader.readGrpc !== "function") throw new Error();
 * ```
 */
export const grpcReader: OnDemand<typeof import("./read.ts")> = onDemand(
  "The gRPC step reader",
  () => import("./read.ts"),
);

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
  keys: Object.keys(GRPC_SCHEMA.properties),
  required: ["target", "method"],
  statuses: { min: 0, max: 16, what: "a gRPC status code from 0 (OK) to 16" },
  read: (map, reading) => grpcReader.get().readGrpc(map, reading),
  // grpc-js takes 60-200 ms to evaluate: a run without a grpc: step should not pay for it.
  attempt: async (spec, call) =>
    (await (attemptModule ??= import("./attempt.ts"))).grpcAttempt(spec, call),
  schema: GRPC_SCHEMA,
  docs: "docs/grpc.md",
  // A library's synchronous loadFlow reads .proto files with protobufjs loaded up front.
  prepare: () => grpcReader.load(),
  // Nothing is open unless a step was attempted (the module loaded).
  close: async () => (await attemptModule)?.closeChannels(),
};

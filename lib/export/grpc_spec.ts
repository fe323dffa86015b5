/**
 * A `grpc:` step's spec as the data its processor function reads
 * (processor_grpc.ts): the target, metadata and messages as Artillery
 * templates (`{{ … }}`, rendered for each virtual user, so a secret stays
 * in the environment), the method's path and streaming shape, and where
 * its `.proto` files are: their parsed root (imports and well-known types
 * included) as protobufjs JSON in `protos/N.json` beside the script, one
 * file per distinct root, which proto-loader's `fromJSON` reads there. A
 * step that names no `.proto` files (server reflection) has no data: the
 * processor does not ask a server's reflection.
 *
 * @module
 */
import type { GrpcSpec } from "../kinds/mod.ts";
import type { Place } from "./scope.ts";
import { templateText, templateValue } from "./template.ts";

/**
 * The path of the root's JSON in the export, written into the scope's
 * files the first time this root is met.
 */
function rootFile(spec: GrpcSpec, place: Place): string {
  const bytes = new TextEncoder().encode(JSON.stringify(spec.root!.toJSON()));
  const same = (known: Uint8Array) =>
    known.length === bytes.length && known.every((b, i) => b === bytes[i]);
  for (const [path, known] of place.scope.files) {
    if (path.startsWith("protos/") && same(known)) return path;
  }
  const count = [...place.scope.files.keys()].filter((p) => p.startsWith("protos/")).length;
  const path = `protos/${count + 1}.json`;
  place.scope.files.set(path, bytes);
  return path;
}

/**
 * The data of a `grpc:` step's spec, or undefined when its method comes
 * from server reflection (no `.proto` files to write).
 *
 * @example
 * ```ts
 * import protobuf from "protobufjs";
 * import { grpcSpecData } from "./grpc_spec.ts";
 * import { newScope } from "./scope.ts";
 * const root = protobuf.parse('syntax = "proto3"; package p; message M {} service S { rpc Get(M) returns (M); }').root;
 * const codec = { path: "/p.S/Get", requestStream: false, responseStream: false } as never;
 * const place = { scope: newScope(), flow: "f", flowIndex: 0, vars: new Set<string>(), step: "s" };
 * const target = { source: "127.0.0.1:1", parts: ["127.0.0.1:1"] };
 * const spec = { target, tls: false, method: "p.S/Get", codec, root, metadata: [], maxMessages: 10 };
 * const data = grpcSpecData(spec, place);
 * if (data?.protos !== "protos/1.json" || !place.scope.files.has("protos/1.json")) throw new Error();
 * ```
 */
export function grpcSpecData(spec: GrpcSpec, place: Place): Record<string, unknown> | undefined {
  if (!spec.codec || !spec.root) return undefined;
  return {
    target: templateText(spec.target, place),
    tls: spec.tls,
    protos: rootFile(spec, place),
    path: spec.codec.path,
    requestStream: spec.codec.requestStream,
    responseStream: spec.codec.responseStream,
    metadata: Object.fromEntries(
      spec.metadata.map(([name, value]) => [name, templateText(value, place)]),
    ),
    ...(spec.message && { message: templateValue(spec.message, place) }),
    ...(spec.messages && { messages: templateValue(spec.messages, place) }),
    maxMessages: spec.maxMessages,
  };
}

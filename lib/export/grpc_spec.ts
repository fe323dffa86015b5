/**
 * A `grpc:` step's spec as the data its processor function reads
 * (processor_grpc.ts): the target, metadata and messages as Artillery
 * templates (`{{ … }}`, rendered for each virtual user, so a secret stays
 * in the environment), the method's path and streaming shape, and where
 * its `.proto` files are: their parsed root (imports and well-known types
 * included) as protobufjs JSON in `protos/N.json` beside the script, one
 * file per distinct root, which proto-loader's `fromJSON` reads there. A
 * step that names no `.proto` files has none: its processor asks the
 * server's reflection for the method (processor_grpc_reflection.ts).
 *
 * @module
 */
import type { GrpcSpec } from "../kinds/mod.ts";
import { dataFile } from "./data_file.ts";
import type { Place } from "./scope.ts";
import { templateText, templateValue } from "./template.ts";

/**
 * The path of a method named `package.Service/Method` (or
 * `package.Service.Method`), as lib/kinds/grpc splits the name: the
 * processor asks the server's reflection for the service before the path.
 */
function reflectedPath(method: string): string {
  const trimmed = method.replace(/^[./]+/, "");
  const at = trimmed.includes("/") ? trimmed.lastIndexOf("/") : trimmed.lastIndexOf(".");
  return `/${trimmed.slice(0, Math.max(at, 0))}/${trimmed.slice(at + 1)}`;
}

/**
 * The data of a `grpc:` step's spec; `protos` is absent when its method
 * comes from server reflection (no `.proto` files to write).
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
 * if (data.protos !== "protos/1.json" || !place.scope.files.has("protos/1.json")) throw new Error();
 * const reflected = grpcSpecData({ ...spec, codec: undefined, root: undefined }, place);
 * if (reflected.protos !== undefined || reflected.path !== "/p.S/Get") throw new Error();
 * ```
 */
export function grpcSpecData(spec: GrpcSpec, place: Place): Record<string, unknown> {
  return {
    target: templateText(spec.target, place),
    tls: spec.tls,
    ...(spec.codec && spec.root && {
      protos: dataFile(
        place.scope,
        "protos",
        "json",
        new TextEncoder().encode(JSON.stringify(spec.root.toJSON())),
      ),
    }),
    path: spec.codec?.path ?? reflectedPath(spec.method),
    // The shape, when known here; a reflected method's is the server's (the processor reads
    // both from the definition it calls with).
    ...(spec.codec && {
      requestStream: spec.codec.requestStream,
      responseStream: spec.codec.responseStream,
    }),
    metadata: Object.fromEntries(
      spec.metadata.map(([name, value]) => [name, templateText(value, place)]),
    ),
    ...(spec.message && { message: templateValue(spec.message, place) }),
    ...(spec.messages && { messages: templateValue(spec.messages, place) }),
    maxMessages: spec.maxMessages,
  };
}

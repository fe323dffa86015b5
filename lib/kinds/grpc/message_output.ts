/**
 * A received message in the proto3 JSON mapping: protobufjs's `toObject`
 * with proto-loader's options (enums by name, 64-bit integers as strings,
 * `bytes` as base64, defaults filled, the set oneof named), then the
 * well-known types anywhere in it in their JSON forms.
 *
 * @module
 */
import type protobuf from "protobufjs";
import { wellKnownOutput } from "./well_known.ts";
import { wireProblem } from "./wire_check.ts";

/** proto-loader's conversion options, which gRPC's Node clients show messages with. */
export const TO_OBJECT: protobuf.IConversionOptions = {
  longs: String,
  enums: String,
  bytes: String,
  defaults: true,
  oneofs: true,
  json: true,
};

/**
 * Decodes `bytes` as `type` into its JSON form; throws a sentence when
 * they are not that type on the wire ({@linkcode wireProblem}) or do not decode.
 *
 * @example
 * ```ts
 * import protobuf from "protobufjs";
 * import { decodeMessage } from "./message_output.ts";
 * const P = protobuf.parse('syntax = "proto3"; message P { int64 n = 1; }').root.lookupType("P");
 * const got = decodeMessage(P, P.encode(P.fromObject({ n: "7" })).finish());
 * if (JSON.stringify(got) !== '{"n":"7"}') throw new Error(JSON.stringify(got));
 * ```
 */
export function decodeMessage(type: protobuf.Type, bytes: Uint8Array): unknown {
  // A plain Uint8Array: protobufjs's Buffer reader clamps a string that runs past the end.
  const plain = new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const problem = wireProblem(type, plain);
  if (problem) throw new Error(problem);
  return messageOutput(type, type.toObject(type.decode(plain), TO_OBJECT));
}

/**
 * A `toObject` result with its well-known types converted.
 *
 * @example
 * ```ts
 * import protobuf from "protobufjs";
 * import { messageOutput } from "./message_output.ts";
 * const P = protobuf.parse('syntax = "proto3"; message P { string s = 1; }').root.lookupType("P");
 * if ((messageOutput(P, { s: "x" }) as { s: string }).s !== "x") throw new Error();
 * ```
 */
export function messageOutput(type: protobuf.Type, object: unknown, depth = 0): unknown {
  const known = wellKnownOutput(type.fullName, object);
  if (known) return known.value;
  if (depth > 64 || object === null || typeof object !== "object") return object;
  const out = object as Record<string, unknown>;
  for (const field of type.fieldsArray) {
    const resolved = field.resolve().resolvedType;
    const value = out[field.name];
    if (!resolved || !("fields" in resolved) || value === undefined || value === null) continue;
    const convert = (v: unknown) => messageOutput(resolved as protobuf.Type, v, depth + 1);
    out[field.name] = field.map
      ? Object.fromEntries(Object.entries(value as object).map(([k, v]) => [k, convert(v)]))
      : field.repeated
      ? (value as unknown[]).map(convert)
      : convert(value);
  }
  return out;
}

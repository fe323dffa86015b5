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
  // Most messages hold no well-known type: nothing to walk then.
  if (!holdsWellKnown(type)) return object;
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

/** Per message type, whether its messages may hold a well-known type; found once per type. */
const HOLDS = new WeakMap<protobuf.Type, boolean>();

/**
 * Whether `type` is a well-known type (`google.protobuf.*`) or has a
 * message field, at any depth, that is one.
 *
 * @example
 * ```ts
 * import protobuf from "protobufjs";
 * import { holdsWellKnown } from "./message_output.ts";
 * const root = new protobuf.Root();
 * protobuf.parse(`syntax = "proto3"; package google.protobuf;
 *   message Timestamp { int64 seconds = 1; int32 nanos = 2; }`, root);
 * protobuf.parse(`syntax = "proto3";
 *   message A { B b = 1; } message B { A a = 1; google.protobuf.Timestamp at = 2; } message C { C c = 1; }`, root);
 * root.resolveAll();
 * if (!holdsWellKnown(root.lookupType("A")) || holdsWellKnown(root.lookupType("C"))) throw new Error();
 * ```
 */
export function holdsWellKnown(type: protobuf.Type): boolean {
  let known = HOLDS.get(type);
  if (known === undefined) HOLDS.set(type, known = walkHolds(type, new Set()));
  return known;
}

// A type met again is on the path being walked or was walked whole: its
// fields are (or were) looked at there, so it adds nothing here.
function walkHolds(type: protobuf.Type, seen: Set<protobuf.Type>): boolean {
  if (type.fullName.startsWith(".google.protobuf.")) return true;
  if (seen.has(type)) return false;
  seen.add(type);
  return type.fieldsArray.some((field) => {
    const resolved = field.resolve().resolvedType;
    return resolved !== null && "fields" in resolved && walkHolds(resolved as protobuf.Type, seen);
  });
}

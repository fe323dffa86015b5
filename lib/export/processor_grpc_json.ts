/**
 * The processor's proto3 JSON mapping of a gRPC step's messages, as
 * lib/kinds/grpc makes it (message_input.ts, message_output.ts,
 * well_known.ts), around proto-loader's own serialize and deserialize:
 * protobufjs's `fromObject` and `toObject` know no well-known type but
 * `Any`, and take fields by their camelCase names only. So a request
 * message's keys are taken by name or as snake_case, and the well-known
 * types anywhere in it (`Timestamp` as RFC 3339 text, `Duration` as
 * `"1.5s"`, the wrappers as their bare value, `Struct`/`Value`/`ListValue`
 * as any JSON, `FieldMask` as `"a,b.c"`) are made protobufjs objects
 * before proto-loader encodes it; a response message's are made JSON after
 * proto-loader decodes it. The types come from protobufjs's `Root.fromJSON`
 * of the same `protos/N.json` (protobufjs, which proto-loader depends on,
 * resolves where proto-loader does).
 *
 * @module
 */

/**
 * The JavaScript of `grpcJsonMethod(method, root, path)`, which gives
 * `method` with its serialize and deserialize in the JSON mapping.
 *
 * @example
 * ```ts
 * import { GRPC_JSON_SOURCE } from "./processor_grpc_json.ts";
 * if (!GRPC_JSON_SOURCE.includes("function grpcJsonMethod(method, root, path)")) throw new Error();
 * ```
 */
export const GRPC_JSON_SOURCE = `
const GRPC_WRAPPERS = new Set(["Double", "Float", "Int64", "UInt64", "Int32", "UInt32", "Bool", "String", "Bytes"]
  .map((t) => ".google.protobuf." + t + "Value"));

/** A google.protobuf.Value's object from any JSON. */
function grpcValueIn(value) {
  if (value === null || value === undefined) return { nullValue: "NULL_VALUE" };
  if (typeof value === "number") return { numberValue: value };
  if (typeof value === "string") return { stringValue: value };
  if (typeof value === "boolean") return { boolValue: value };
  if (Array.isArray(value)) return { listValue: { values: value.map(grpcValueIn) } };
  const fields = {};
  for (const [k, v] of Object.entries(value)) fields[k] = grpcValueIn(v);
  return { structValue: { fields } };
}

/** Any JSON from a google.protobuf.Value's object. */
function grpcValueOut(o) {
  if (o.structValue) {
    return Object.fromEntries(Object.entries(o.structValue.fields || {}).map(([k, v]) => [k, grpcValueOut(v)]));
  }
  if (o.listValue) return (o.listValue.values || []).map(grpcValueOut);
  for (const key of ["numberValue", "stringValue", "boolValue"]) {
    if (o.kind === key || (o.kind === undefined && o[key] !== undefined)) return o[key];
  }
  return null;
}

/** A well-known type's JSON form as fromObject takes it, or undefined when the type is none. */
function grpcKnownIn(type, value) {
  if (GRPC_WRAPPERS.has(type)) return { value: { value } };
  if (type === ".google.protobuf.Timestamp") {
    const ms = Date.parse(value);
    const fraction = (/\\.(\\d{1,9})/.exec(String(value)) || [])[1] || "";
    return { value: { seconds: String(Math.floor(ms / 1000)), nanos: Number(fraction.padEnd(9, "0") || 0) } };
  }
  if (type === ".google.protobuf.Duration") {
    const m = /^(-)?(\\d+)(?:\\.(\\d{1,9}))?s$/.exec(String(value));
    if (!m) return { value };
    const sign = m[1] ? -1 : 1;
    return { value: { seconds: String(sign * Number(m[2])), nanos: sign * Number((m[3] || "").padEnd(9, "0") || 0) } };
  }
  if (type === ".google.protobuf.Value") return { value: grpcValueIn(value) };
  if (type === ".google.protobuf.Struct") return { value: grpcValueIn(value).structValue };
  if (type === ".google.protobuf.ListValue") return { value: grpcValueIn(value).listValue };
  if (type === ".google.protobuf.FieldMask") return { value: { paths: value === "" ? [] : String(value).split(",") } };
  return undefined;
}

/** RFC 3339 text of a Timestamp, with 0, 3, 6 or 9 fraction digits as flowrun writes it. */
function grpcTimestampOut(secs, nanos) {
  const iso = new Date(secs * 1000).toISOString().replace(/\\.\\d{3}Z$/, "");
  if (nanos === 0) return iso + "Z";
  const digits = String(nanos).padStart(9, "0");
  const cut = digits.endsWith("000000") ? 3 : digits.endsWith("000") ? 6 : 9;
  return iso + "." + digits.slice(0, cut) + "Z";
}

/** A well-known type's object from toObject in its JSON form, or undefined when the type is none. */
function grpcKnownOut(type, object) {
  const o = object || {};
  if (GRPC_WRAPPERS.has(type)) return { value: o.value };
  if (type === ".google.protobuf.Timestamp") return { value: grpcTimestampOut(Number(o.seconds || 0), Number(o.nanos || 0)) };
  if (type === ".google.protobuf.Duration") {
    const secs = Number(o.seconds || 0), nanos = Number(o.nanos || 0);
    if (nanos === 0) return { value: secs + "s" };
    const sign = secs < 0 || nanos < 0 ? "-" : "";
    return { value: sign + Math.abs(secs) + "." + String(Math.abs(nanos)).padStart(9, "0").replace(/0+$/, "") + "s" };
  }
  if (type === ".google.protobuf.Value") return { value: grpcValueOut(o) };
  if (type === ".google.protobuf.Struct") return { value: grpcValueOut({ structValue: o }) };
  if (type === ".google.protobuf.ListValue") return { value: grpcValueOut({ listValue: o }) };
  if (type === ".google.protobuf.FieldMask") return { value: (o.paths || []).join(",") };
  return undefined;
}

/** Each field's value of a message (map, list or one) converted by \`one(type, value)\`. */
function grpcFields(type, value, one, input) {
  const out = input ? {} : value;
  for (const [key, item] of Object.entries(value)) {
    const field = type.fields[key] || type.fields[key.replace(/_([a-z0-9])/g, (_, c) => c.toUpperCase())];
    if (!field) {
      if (input) out[key] = item;
      continue;
    }
    if (item === null || item === undefined) continue;
    const resolved = field.resolve().resolvedType;
    const nested = resolved && resolved.fields ? (v) => one(resolved, v) : (v) => v;
    out[field.name] = field.map ? Object.fromEntries(Object.entries(item).map(([k, v]) => [k, nested(v)]))
      : field.repeated && Array.isArray(item) ? item.map(nested) : nested(item);
  }
  return out;
}

/** A request message's JSON form as fromObject takes it. */
function grpcMessageIn(type, value, depth = 0) {
  const known = grpcKnownIn(type.fullName, value);
  if (known) return known.value;
  if (depth > 64 || value === null || typeof value !== "object" || Array.isArray(value)) return value;
  return grpcFields(type, value, (t, v) => grpcMessageIn(t, v, depth + 1), true);
}

/** A toObject result in its JSON form. */
function grpcMessageOut(type, object, depth = 0) {
  const known = grpcKnownOut(type.fullName, object);
  if (known) return known.value;
  if (depth > 64 || object === null || typeof object !== "object") return object;
  return grpcFields(type, object, (t, v) => grpcMessageOut(t, v, depth + 1), false);
}

/** The method with its serialize and deserialize in the proto3 JSON mapping. */
function grpcJsonMethod(method, root, path) {
  const [service, name] = path.slice(1).split("/");
  const rpc = root.lookupService(service).methods[name];
  rpc.resolve();
  const request = rpc.resolvedRequestType, response = rpc.resolvedResponseType;
  return {
    ...method,
    requestSerialize: (value) => method.requestSerialize(grpcMessageIn(request, value)),
    responseDeserialize: (bytes) => grpcMessageOut(response, method.responseDeserialize(bytes)),
  };
}
`;

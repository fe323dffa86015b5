/**
 * Google's well-known types in their proto3 JSON forms, both ways:
 * `Timestamp` as RFC 3339 text, `Duration` as `"1.5s"`, the wrappers
 * (`Int32Value`…) as their bare value, `Struct`/`Value`/`ListValue` as any
 * JSON, `FieldMask` as `"a,b.c"`. protobufjs's `fromObject`/`toObject` know
 * only `Any` (by `@type`), so without this a `Timestamp` would read
 * `{seconds, nanos}` and a YAML date would be refused.
 *
 * @module
 */

const WRAPPERS = new Set(
  ["Double", "Float", "Int64", "UInt64", "Int32", "UInt32", "Bool", "String", "Bytes"].map((t) =>
    `.google.protobuf.${t}Value`
  ),
);

/**
 * A well-known type's JSON form as protobufjs's `fromObject` takes it;
 * `undefined` when `type` is not one this converts, a sentence when the
 * value does not fit.
 *
 * @example
 * ```ts
 * import { wellKnownInput } from "./well_known.ts";
 * const t = wellKnownInput(".google.protobuf.Timestamp", "1970-01-01T00:00:01.5Z");
 * if (JSON.stringify(t) !== '{"value":{"seconds":"1","nanos":500000000}}') throw new Error(JSON.stringify(t));
 * if (typeof wellKnownInput(".google.protobuf.Duration", "soon") !== "string") throw new Error();
 * ```
 */
export function wellKnownInput(
  type: string,
  value: unknown,
): { value: unknown } | string | undefined {
  if (WRAPPERS.has(type)) return { value: { value } };
  switch (type) {
    case ".google.protobuf.Timestamp":
      return timestampIn(value);
    case ".google.protobuf.Duration":
      return durationIn(value);
    case ".google.protobuf.Value":
      return { value: valueIn(value) };
    case ".google.protobuf.Struct":
      return isMap(value)
        ? { value: valueIn(value).structValue }
        : `expected a map, got ${typeof value}`;
    case ".google.protobuf.ListValue":
      return Array.isArray(value) ? { value: valueIn(value).listValue } : "expected a list";
    case ".google.protobuf.FieldMask":
      return typeof value === "string"
        ? { value: { paths: value === "" ? [] : value.split(",") } }
        : `expected paths separated by commas, got ${JSON.stringify(value)}`;
    case ".google.protobuf.Any":
      return { value };
  }
  return undefined;
}

/**
 * A well-known type's object from `toObject` in its JSON form; `undefined`
 * when `type` is not one this converts.
 *
 * @example
 * ```ts
 * import { wellKnownOutput } from "./well_known.ts";
 * const t = wellKnownOutput(".google.protobuf.Timestamp", { seconds: "1", nanos: 500000000 });
 * if (t?.value !== "1970-01-01T00:00:01.500Z") throw new Error(String(t?.value));
 * if (wellKnownOutput(".google.protobuf.Duration", { seconds: "90", nanos: 0 })?.value !== "90s") throw new Error();
 * ```
 */
export function wellKnownOutput(type: string, object: unknown): { value: unknown } | undefined {
  const o = (object ?? {}) as Record<string, unknown>;
  if (WRAPPERS.has(type)) return { value: o.value };
  switch (type) {
    case ".google.protobuf.Timestamp":
      return { value: timestampOut(Number(o.seconds ?? 0), Number(o.nanos ?? 0)) };
    case ".google.protobuf.Duration":
      return { value: `${seconds(Number(o.seconds ?? 0), Number(o.nanos ?? 0))}s` };
    case ".google.protobuf.Value":
      return { value: valueOut(o) };
    case ".google.protobuf.Struct":
      return { value: valueOut({ structValue: o }) };
    case ".google.protobuf.ListValue":
      return { value: valueOut({ listValue: o }) };
    case ".google.protobuf.FieldMask":
      return { value: ((o.paths ?? []) as string[]).join(",") };
  }
  return undefined;
}

function timestampIn(value: unknown): { value: unknown } | string {
  const text = value instanceof Date ? value.toISOString() : value;
  const ms = typeof text === "string" ? Date.parse(text) : NaN;
  if (Number.isNaN(ms)) {
    return `expected an RFC 3339 time (2024-05-01T12:00:00Z), got ${JSON.stringify(value)}`;
  }
  const fraction = /\.(\d{1,9})/.exec(text as string)?.[1] ?? "";
  const secs = Math.floor(ms / 1000);
  return { value: { seconds: String(secs), nanos: Number(fraction.padEnd(9, "0") || 0) } };
}

function durationIn(value: unknown): { value: unknown } | string {
  const m = typeof value === "string" ? /^(-)?(\d+)(?:\.(\d{1,9}))?s$/.exec(value) : null;
  if (!m) return `expected a duration in seconds such as "1.5s", got ${JSON.stringify(value)}`;
  const sign = m[1] ? -1 : 1;
  const nanos = Number((m[3] ?? "").padEnd(9, "0") || 0);
  return { value: { seconds: String(sign * Number(m[2])), nanos: sign * nanos } };
}

function valueIn(value: unknown): Record<string, unknown> {
  if (value === null || value === undefined) return { nullValue: "NULL_VALUE" };
  if (typeof value === "number") return { numberValue: value };
  if (typeof value === "string") return { stringValue: value };
  if (typeof value === "boolean") return { boolValue: value };
  if (Array.isArray(value)) return { listValue: { values: value.map(valueIn) } };
  const fields: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value as object)) fields[k] = valueIn(v);
  return { structValue: { fields } };
}

function valueOut(o: Record<string, unknown>): unknown {
  if (o.structValue) {
    const fields = ((o.structValue as { fields?: object }).fields ?? {}) as Record<string, never>;
    return Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, valueOut(v)]));
  }
  if (o.listValue) return ((o.listValue as { values?: never[] }).values ?? []).map(valueOut);
  for (const key of ["numberValue", "stringValue", "boolValue"]) {
    if (o.kind === key || (o.kind === undefined && o[key] !== undefined)) return o[key];
  }
  return null;
}

function timestampOut(secs: number, nanos: number): string {
  const iso = new Date(secs * 1000).toISOString().replace(/\.\d{3}Z$/, "");
  if (nanos === 0) return `${iso}Z`;
  const digits = String(nanos).padStart(9, "0");
  const cut = digits.endsWith("000000") ? 3 : digits.endsWith("000") ? 6 : 9;
  return `${iso}.${digits.slice(0, cut)}Z`;
}

function seconds(secs: number, nanos: number): string {
  if (nanos === 0) return String(secs);
  const sign = secs < 0 || nanos < 0 ? "-" : "";
  const digits = String(Math.abs(nanos)).padStart(9, "0").replace(/0+$/, "");
  return `${sign}${Math.abs(secs)}.${digits}`;
}

function isMap(value: unknown): boolean {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

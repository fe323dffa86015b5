/**
 * A request message written in YAML (the proto3 JSON mapping) checked
 * against its protobuf type and made into what protobufjs's `fromObject`
 * takes: field names as written in the `.proto` (`point_count`) or in
 * lowerCamelCase (`pointCount`), enums by name or number, 64-bit integers
 * as strings or numbers, `bytes` as base64, well-known types in their JSON
 * forms (`well_known.ts`). `fromObject` itself ignores unknown fields and
 * turns a wrong value into 0 without a word; this says which field, where.
 *
 * @module
 */
import type protobuf from "protobufjs";
import { suggest } from "../../_util/suggest.ts";
import { wellKnownInput } from "./well_known.ts";

/** The most nested messages and list items one message may hold, so a cycle of references ends. */
const MAX_DEPTH = 64;

/**
 * `value` ready for `type.fromObject`, or a sentence naming the field that
 * does not fit (its path, the value, the nearest field name).
 *
 * @example
 * ```ts
 * import protobuf from "protobufjs";
 * import { messageInput } from "./message_input.ts";
 * const root = protobuf.parse('syntax = "proto3"; message P { int32 lat_e7 = 1; }').root;
 * const P = root.lookupType("P");
 * const ok = messageInput(P, { lat_e7: 5 });
 * if (!("value" in ok) || (ok.value as { latE7: number }).latE7 !== 5) throw new Error();
 * const bad = messageInput(P, { lat: 5 });
 * if (!("problem" in bad) || !bad.problem.includes('"latE7"')) throw new Error(JSON.stringify(bad));
 * ```
 */
export function messageInput(
  type: protobuf.Type,
  value: unknown,
  at = "the message",
): { value: unknown } | { problem: string } {
  try {
    return { value: messageValue(type, value, at, 0) };
  } catch (error) {
    if (error instanceof FieldProblem) return { problem: error.message };
    throw error;
  }
}

class FieldProblem extends Error {}

function messageValue(type: protobuf.Type, value: unknown, at: string, depth: number): unknown {
  if (depth > MAX_DEPTH) throw new FieldProblem(`${at} is nested more than ${MAX_DEPTH} deep`);
  const known = wellKnownInput(type.fullName, value);
  if (known !== undefined) {
    if (typeof known === "string") throw new FieldProblem(`${at}: ${known}`);
    return known.value;
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new FieldProblem(
      `Expected ${at} to be a map of ${type.name}'s fields, got ${show(value)}`,
    );
  }
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    const field = type.fields[key] ?? type.fields[camel(key)];
    if (!field) throw new FieldProblem(unknownField(type, key, at));
    if (item === null) continue;
    out[field.name] = fieldValue(field, item, `${at}.${key}`, depth);
  }
  return out;
}

function fieldValue(field: protobuf.Field, value: unknown, at: string, depth: number): unknown {
  if (field.map) {
    if (value === null || typeof value !== "object" || Array.isArray(value)) {
      throw new FieldProblem(`Expected ${at} to be a map, got ${show(value)}`);
    }
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = single(field, v, `${at}.${k}`, depth);
    return out;
  }
  if (field.repeated) {
    if (!Array.isArray(value)) {
      throw new FieldProblem(`Expected ${at} to be a list, got ${show(value)}`);
    }
    return value.map((v, i) => single(field, v, `${at}[${i}]`, depth));
  }
  return single(field, value, at, depth);
}

function single(field: protobuf.Field, value: unknown, at: string, depth: number): unknown {
  const resolved = field.resolve().resolvedType;
  if (resolved && "fields" in resolved) {
    return messageValue(resolved as protobuf.Type, value, at, depth + 1);
  }
  if (resolved && "values" in resolved) {
    const values = (resolved as protobuf.Enum).values;
    if (typeof value === "number" && Number.isInteger(value)) return value;
    if (typeof value === "string" && value in values) return value;
    const near = suggest(String(value), Object.keys(values));
    throw new FieldProblem(
      `${at} is ${show(value)}, not a value of ${resolved.name}${
        near ? ` (did you mean "${near}"?)` : ""
      }`,
    );
  }
  return scalar(field.type, value, at);
}

const INTEGER = /^-?\d+$/;

const isNumeric = (v: unknown) =>
  typeof v === "number" || (typeof v === "string" && v.trim() !== "" && !Number.isNaN(Number(v)));

/** What a scalar of each protobuf type may be written as; integers otherwise. */
const SCALARS: Record<string, (v: unknown) => boolean> = {
  string: (v) => typeof v === "string",
  bool: (v) => typeof v === "boolean",
  bytes: (v) => typeof v === "string" && /^[A-Za-z0-9+/_-]*={0,2}$/.test(v),
  double: isNumeric,
  float: isNumeric,
};

function scalar(type: string, value: unknown, at: string): unknown {
  const fits = SCALARS[type] ??
    ((v: unknown) =>
      (typeof v === "number" && Number.isInteger(v)) || (typeof v === "string" && INTEGER.test(v)));
  if (!fits(value)) {
    const want = type === "bytes" ? "bytes (base64 text)" : type;
    throw new FieldProblem(`Expected ${at} to be ${want}, got ${show(value)}`);
  }
  if ((type === "double" || type === "float") && typeof value === "string") return Number(value);
  return value;
}

function unknownField(type: protobuf.Type, key: string, at: string): string {
  const names = Object.keys(type.fields);
  // An abbreviation (lat) is too far from its field (latitude) for an edit distance.
  const near = suggest(key, names) ?? names.find((n) => n.startsWith(camel(key)));
  return `${at} has "${key}", which is not a field of ${type.fullName.replace(/^\./, "")}; ${
    near ? `did you mean "${near}"? ` : ""
  }its fields are ${names.map((n) => `"${n}"`).join(", ") || "none"}`;
}

function camel(name: string): string {
  return name.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

function show(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/**
 * Whether bytes are a message of a type on the wire, before protobufjs
 * decodes them: protobufjs's decoders read a known field number without
 * looking at its wire type (a varint where a string belongs reads as junk)
 * and clamp a string running past the end, so another message type, or
 * bytes cut short, would decode silently into wrong values. This walks the
 * tags: a known field's wire type must fit its type (a repeated scalar may
 * also come packed), lengths must stay inside the bytes, nested messages
 * are walked too.
 *
 * @module
 */
import protobuf from "protobufjs";

const MAX_DEPTH = 64;

/** How a field of a type is checked: the wire types it may come as, the message type it holds. */
interface FieldPlan {
  field: protobuf.Field;
  wires: number[];
  /** The field's message type, walked in turn (not for a map: its entries are not messages here). */
  inner?: protobuf.Type;
}

/** Each type's plan by field number, made once per type (the check runs on every message). */
const PLANS = new WeakMap<protobuf.Type, Map<number, FieldPlan>>();

function planOf(type: protobuf.Type): Map<number, FieldPlan> {
  let plan = PLANS.get(type);
  if (plan) return plan;
  plan = new Map();
  for (const field of type.fieldsArray) {
    const resolved = field.resolve().resolvedType;
    const inner = !field.map && resolved && "fields" in resolved
      ? resolved as protobuf.Type
      : undefined;
    plan.set(field.id, { field, wires: wireTypes(field), ...(inner ? { inner } : {}) });
  }
  PLANS.set(type, plan);
  return plan;
}

/** The wire types a field may arrive with. */
function wireTypes(field: protobuf.Field): number[] {
  const resolved = field.resolve().resolvedType;
  if (field.map || (resolved && "fields" in resolved)) return [2];
  if (resolved && "values" in resolved) return field.repeated ? [0, 2] : [0];
  const own = protobuf.types.basic[field.type as keyof typeof protobuf.types.basic];
  const type = own === undefined ? 2 : own;
  return field.repeated && type !== 2 ? [type, 2] : [type];
}

/**
 * `undefined` when `bytes` read as `type` tag by tag, else a sentence
 * saying where they do not.
 *
 * @example
 * ```ts
 * import protobuf from "protobufjs";
 * import { wireProblem } from "./wire_check.ts";
 * const root = protobuf.parse('syntax = "proto3"; message S { string s = 1; } message N { int32 n = 1; }').root;
 * const S = root.lookupType("S"), N = root.lookupType("N");
 * if (wireProblem(S, S.encode({ s: "x" }).finish()) !== undefined) throw new Error();
 * if (wireProblem(S, N.encode({ n: 7 }).finish()) === undefined) throw new Error("a varint is no string");
 * ```
 */
export function wireProblem(type: protobuf.Type, bytes: Uint8Array, depth = 0): string | undefined {
  if (depth > MAX_DEPTH) return `it is nested more than ${MAX_DEPTH} deep`;
  const reader = protobuf.Reader.create(bytes);
  const plan = planOf(type);
  try {
    while (reader.pos < reader.len) {
      const tag = reader.uint32();
      const id = tag >>> 3, wire = tag & 7;
      const known = plan.get(id);
      if (known && !known.wires.includes(wire)) {
        const { field } = known;
        return `field ${id} ("${field.name}") came as wire type ${wire}, not as a ${field.type}`;
      }
      if (wire === 2 && known?.inner) {
        const problem = wireProblem(known.inner, reader.bytes(), depth + 1);
        if (problem) return `${known.field.name}: ${problem}`;
      } else reader.skipType(wire);
    }
  } catch (error) {
    return (error as Error).message;
  }
  return undefined;
}

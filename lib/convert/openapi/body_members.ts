/**
 * Every named member of a request body's JSON schema, at any level a body
 * nests them (through `allOf`/`oneOf`/`anyOf` and a list's items), for the
 * rules that read one constraint per member name (length_limits.ts's
 * `maxLength`, digit_codes.ts's n-digit bounds).
 *
 * @module
 */
import { isNode } from "../../check/openapi_operations.ts";
import { deref } from "./examples.ts";
import { bodySchema } from "./own_names.ts";
import type { OpenApiOperation } from "./operations.ts";

/** Deepest schema level looked into: a body nests its item once or twice. */
const MAX_DEPTH = 4;

/**
 * Each member of `op`'s JSON body schema as `[name, schema]` (the schema
 * dereferenced), a member before those nested in it; each schema is walked
 * once; none without a document.
 *
 * @example
 * ```ts
 * import { bodyMembers } from "./body_members.ts";
 * const item = { type: "object", properties: { sku: { type: "string", maxLength: 8 } } };
 * const schema = { type: "object", properties: { lines: { type: "array", items: item } } };
 * const op = { node: { requestBody: { content: { "application/json": { schema } } } } } as never;
 * const names = bodyMembers({}, op).map(([name]) => name);
 * if (names.join() !== "lines,sku") throw new Error(names.join());
 * ```
 */
export function bodyMembers(doc: unknown, op: OpenApiOperation): [string, unknown][] {
  const out: [string, unknown][] = [];
  if (doc !== undefined) walk(doc, bodySchema(doc, op), out, 0, new Set());
  return out;
}

function walk(
  doc: unknown,
  schema: unknown,
  out: [string, unknown][],
  depth: number,
  seen: Set<unknown>,
): void {
  const s = deref(doc, schema);
  if (depth > MAX_DEPTH || !isNode(s) || seen.has(s)) return;
  seen.add(s);
  for (const part of ["allOf", "oneOf", "anyOf"]) {
    const list = s[part];
    if (Array.isArray(list)) { for (const sub of list) walk(doc, sub, out, depth + 1, seen); }
  }
  if (s.items !== undefined) walk(doc, s.items, out, depth + 1, seen);
  if (!isNode(s.properties)) return;
  for (const [name, prop] of Object.entries(s.properties)) {
    out.push([name, deref(doc, prop)]);
    walk(doc, prop, out, depth + 1, seen);
  }
}

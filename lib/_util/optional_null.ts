/**
 * A member its schema does not require, answered `null`, read as absent
 * when the document writes null nowhere. Such a document cannot say that a
 * member may be null (no `nullable`, no `x-nullable`, no `"null"` type, no
 * null among an `enum`'s or `const`'s values), while its server writes an
 * unset optional member as `null`: pydantic 1, behind FastAPI before 0.100,
 * writes `Optional[str] = None` as `{type: string}` left out of `required`
 * and answers `"description": null`, so every answer of an item without a
 * description failed its `openapi:` check though the server answered as
 * its code means. A document that writes null anywhere says where it may
 * be, and is read as written; a required member stays non-null.
 *
 * @module
 */

/**
 * Whether `node` (a parsed OpenAPI document, or any part of one) writes
 * null anywhere: `nullable: true`, `x-nullable: true`, a `"null"` type, or
 * null as a value of an `enum` or a `const`. Self-contained: the helper
 * thread runs its source (lib/load/schema_compile.ts).
 *
 * @example
 * ```ts
 * import { saysNull } from "./optional_null.ts";
 * if (saysNull({ properties: { a: { type: "string" } } })) throw new Error();
 * if (!saysNull({ properties: { a: { type: "string", nullable: true } } })) throw new Error();
 * if (!saysNull({ anyOf: [{ type: "string" }, { type: "null" }] })) throw new Error();
 * if (!saysNull({ enum: ["a", null] })) throw new Error();
 * ```
 */
export function saysNull(node: unknown): boolean {
  const stack: unknown[] = [node];
  // Bounded by the document itself: each value is visited once (parsed JSON or YAML is a tree).
  for (let seen = 0; stack.length > 0 && seen < 10_000_000; seen++) {
    const value = stack.pop();
    if (value === null || typeof value !== "object") continue;
    if (Array.isArray(value)) {
      stack.push(...value);
      continue;
    }
    const o = value as Record<string, unknown>;
    if (o.nullable === true || o["x-nullable"] === true) return true;
    const types = Array.isArray(o.type) ? o.type : [o.type];
    if (types.includes("null")) return true;
    if (Array.isArray(o.enum) && o.enum.includes(null)) return true;
    if (Object.hasOwn(o, "const") && o.const === null) return true;
    stack.push(...Object.values(o));
  }
  return false;
}

/**
 * `schema` admitting null too, as little changed as can be, so a violation
 * reads as before: a `type` gains `"null"`, an `enum` gains null, a
 * reference, composition, `not` or `const` becomes `anyOf` itself or null,
 * and a schema that already admits null (no type: `{pattern: …}` applies
 * to text only) is kept. Self-contained: the helper thread runs its source
 * (lib/load/schema_compile.ts).
 *
 * @example
 * ```ts
 * import { admitNull } from "./optional_null.ts";
 * const typed = admitNull({ type: "string", enum: ["a"] }) as Record<string, unknown>;
 * if (JSON.stringify(typed) !== '{"type":["string","null"],"enum":["a",null]}') throw new Error();
 * const ref = admitNull({ $ref: "#/x" }) as Record<string, unknown>;
 * if (!Array.isArray(ref.anyOf)) throw new Error();
 * const text = { pattern: "^a$" };
 * if (admitNull(text) !== text) throw new Error();
 * ```
 */
export function admitNull(schema: Record<string, unknown>): unknown {
  const composed = ["$ref", "allOf", "anyOf", "oneOf", "not", "const"];
  const typed = typeof schema.type === "string" || Array.isArray(schema.type);
  if (composed.some((k) => Object.hasOwn(schema, k))) return { anyOf: [schema, { type: "null" }] };
  if (!typed && !Array.isArray(schema.enum)) return schema;
  const out: Record<string, unknown> = { ...schema };
  if (typed) {
    const types: unknown[] = Array.isArray(schema.type) ? schema.type : [schema.type];
    out.type = types.includes("null") ? types : [...types, "null"];
  }
  if (Array.isArray(schema.enum) && !schema.enum.includes(null)) out.enum = [...schema.enum, null];
  return out;
}

/**
 * `out` (a schema as the validator will read it) with each member of its
 * `properties` that its `required` does not list admitting `null` too
 * ({@linkcode admitNull}), when `silent`: its document writes null nowhere
 * (see the module). Self-contained but for `admitNull`: the helper thread runs
 * both sources (lib/load/schema_compile.ts).
 *
 * @example
 * ```ts
 * import { optionalNull } from "./optional_null.ts";
 * const out: Record<string, unknown> = {
 *   type: "object",
 *   required: ["id"],
 *   properties: { id: { type: "integer" }, note: { type: "string" } },
 * };
 * optionalNull(out);
 * const props = out.properties as Record<string, Record<string, unknown>>;
 * if (props.id.type !== "integer") throw new Error("a required member stays non-null");
 * if (JSON.stringify(props.note.type) !== '["string","null"]') throw new Error();
 * ```
 */
export function optionalNull(out: Record<string, unknown>, silent = true): void {
  const props = out.properties;
  if (!silent || props === null || typeof props !== "object" || Array.isArray(props)) return;
  const required = Array.isArray(out.required) ? out.required : [];
  // Built as entries: a member named `__proto__` stays a member.
  out.properties = Object.fromEntries(
    Object.entries(props as Record<string, unknown>).map(([name, schema]) =>
      required.includes(name) || schema === null || typeof schema !== "object" ||
        Array.isArray(schema)
        ? [name, schema]
        : [name, admitNull(schema as Record<string, unknown>)]
    ),
  );
}

/**
 * A member's kind through the `allOf` it wraps. Pydantic 1 writes a member
 * whose schema is a reference and that has a default or a description as
 * `{allOf: [{$ref}], default: 1}`: no `type`, `enum` or `format` of its own.
 * Read alone, such a member looked like untyped text, and a sign-up sent the
 * run's user name for an integer choice (`role`, refused 422). Its kind is
 * what its parts say: their `type`, `enum`, `const` and `format`, the member's
 * own words first.
 *
 * @module
 */
import { isNode, type Node } from "../../check/openapi_operations.ts";
import { deref } from "./deref.ts";

/** The keywords that say what kind of value a member takes. */
const KIND_KEYS = ["type", "enum", "const", "format"] as const;

/** How deep wrapped parts are followed (a part wrapping a part, …). */
const MAX_WRAPPING = 4;

/**
 * `schema` with the kind keywords of its `allOf` parts (followed through
 * `$ref`, bounded) added where it has none of its own; `schema` itself when
 * it wraps nothing.
 *
 * @example
 * ```ts
 * import { memberKind } from "./wrapped_member.ts";
 * const doc = { components: { schemas: { Role: { type: "integer", enum: [1, 2] } } } };
 * const role = { allOf: [{ $ref: "#/components/schemas/Role" }], default: 1 };
 * const kind = memberKind(doc, role);
 * if (kind.type !== "integer" || !Array.isArray(kind.enum)) throw new Error(JSON.stringify(kind));
 * if (memberKind(doc, { type: "string" }).type !== "string") throw new Error();
 * ```
 */
export function memberKind(doc: unknown, schema: Node, depth = 0): Node {
  if (!Array.isArray(schema.allOf) || depth >= MAX_WRAPPING) return schema;
  const kind: Node = { ...schema };
  for (const part of schema.allOf) {
    const target = deref(doc, part);
    if (!isNode(target)) continue;
    const inner = memberKind(doc, target, depth + 1);
    for (const key of KIND_KEYS) {
      if (kind[key] === undefined && inner[key] !== undefined) kind[key] = inner[key];
    }
  }
  return kind;
}

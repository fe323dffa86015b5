/**
 * A `type: object` that describes no member, whose own `example` is no
 * object, read as the example's type too. `@nestjs/swagger` writes `type:
 * object` for a property TypeScript types as a union (`description: string
 * | null` reflects as `Object`), beside the `example` its author wrote
 * (`"Create a mockup in Figma"`): the document says both, and the server
 * answers what the example shows. A NestJS Trello-like API's answers failed
 * their `openapi:` checks ("/description must be object,null") on every
 * card it answered as documented by that example. A schema describing
 * members (`properties`, `additionalProperties`, a composition, …) says
 * what object it means, and one with no example says nothing else: both
 * stay as written.
 *
 * @module
 */

/**
 * `out` (a schema as the validator will read it: `type` already a JSON
 * Schema type, or a list of them with `"null"` for 3.0's `nullable`) with
 * the type of `node`'s `example` added, when `out` is a memberless object
 * type and the example is no object (see the module). Self-contained: the
 * helper thread runs its source (lib/load/schema_compile.ts).
 *
 * @example
 * ```ts
 * import { exampledType } from "./exampled_type.ts";
 * const out: Record<string, unknown> = { type: ["object", "null"] };
 * exampledType({ type: "object", nullable: true, example: "a text" }, out);
 * if (JSON.stringify(out.type) !== '["object","null","string"]') throw new Error();
 * const shaped: Record<string, unknown> = { type: "object", properties: {} };
 * exampledType({ example: "x" }, shaped);
 * if (shaped.type !== "object") throw new Error();
 * ```
 */
export function exampledType(node: Record<string, unknown>, out: Record<string, unknown>): void {
  const types = typeof out.type === "string" ? [out.type] : out.type;
  if (!Array.isArray(types) || !types.includes("object")) return;
  if (types.some((t) => t !== "object" && t !== "null")) return;
  const members = [
    "properties",
    "additionalProperties",
    "patternProperties",
    "propertyNames",
    "required",
    "minProperties",
    "maxProperties",
    "dependentRequired",
    "dependentSchemas",
    "unevaluatedProperties",
    "allOf",
    "anyOf",
    "oneOf",
    "not",
    "$ref",
    "enum",
    "const",
    "discriminator",
  ];
  if (!Object.hasOwn(node, "example") || members.some((k) => Object.hasOwn(out, k))) return;
  const example = node.example;
  const kind = Array.isArray(example)
    ? "array"
    : typeof example === "string" || typeof example === "boolean"
    ? typeof example
    : typeof example === "number"
    ? "number"
    : undefined;
  if (kind !== undefined) out.type = [...types, kind];
}

/**
 * A relation member: `oneOf` (or `anyOf`) an id (a string or an integer)
 * and the related item, a `$ref` to an object schema (how an API answers it
 * expanded: Directus's `resolve: {oneOf: [{type: string}, {$ref:
 * Operations}]}`, "The operation triggered when …"). Its example is an id
 * of the document author's, naming an item that must exist: an optional
 * one is left out of a body (examples.ts), as a member named for a
 * collection is; one the document marks `nullable: false` cannot be left
 * empty, and reads the flow's own item (body_links.ts).
 *
 * @module
 */
import { isNode, type Node } from "../../check/openapi_operations.ts";
import { atPointer } from "./refs.ts";

/**
 * Whether `p` is a relation member (see the module).
 *
 * @example
 * ```ts
 * import { isRelation } from "./relation_member.ts";
 * const doc = { components: { schemas: { Flows: { type: "object", properties: { id: { type: "string" } } } } } };
 * const flow = { oneOf: [{ type: "string", format: "uuid" }, { $ref: "#/components/schemas/Flows" }] };
 * if (!isRelation(doc, flow) || isRelation(doc, { oneOf: [{ type: "string" }, { type: "integer" }] })) {
 *   throw new Error();
 * }
 * ```
 */
export function isRelation(doc: unknown, p: unknown): boolean {
  if (!isNode(p)) return false;
  const choices = [p.oneOf, p.anyOf].flatMap((c) => Array.isArray(c) ? c.filter(isNode) : []);
  const id = choices.some((c) => c.$ref === undefined && /^(string|integer)$/.test(String(c.type)));
  const item = choices.some((c) => {
    // A local `$ref` (the bundle made every one local); examples.ts imports this file.
    const s = typeof c.$ref === "string" && c.$ref.startsWith("#")
      ? atPointer(doc, c.$ref.slice(1))
      : undefined;
    return isNode(s) && (s.type === "object" || isNode(s.properties));
  });
  return id && item;
}

/**
 * Whether `p` is a relation the document says cannot be empty (`nullable: false`).
 *
 * @example
 * ```ts
 * import { isRequiredRelation } from "./relation_member.ts";
 * const doc = { components: { schemas: { Flows: { type: "object" } } } };
 * const flow = { nullable: false, oneOf: [{ type: "string" }, { $ref: "#/components/schemas/Flows" }] };
 * if (!isRequiredRelation(doc, flow) || isRequiredRelation(doc, { ...flow, nullable: true })) throw new Error();
 * ```
 */
export function isRequiredRelation(doc: unknown, p: Node): boolean {
  return p.nullable === false && isRelation(doc, p);
}

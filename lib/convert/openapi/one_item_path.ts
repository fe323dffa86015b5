/**
 * A path that is one item though no parameter names it: the signed-in
 * user's `/auth/profile`, a `/settings`. Its GET answers one object, not a
 * list, and no POST beside creates into it (a collection is where items
 * are created), so a PUT there updates that item as a PUT at `/{id}` does
 * (`patch_body.ts`): an Express backend's `PUT /auth/profile` with
 * `{firstName?, lastName?, email?}` refused `{}` (400 "At least one field
 * must be provided for update").
 *
 * @module
 */
import { isNode, type Node } from "../../check/openapi_operations.ts";
import { jsonSchema, successes } from "./responses.ts";

/**
 * Whether the path item `item` is one item: a GET whose every JSON answer
 * is an object, and no POST beside it.
 *
 * @example
 * ```ts
 * import { isOneItemPath } from "./one_item_path.ts";
 * const object = { 200: { content: { "application/json": { schema: { type: "object" } } } } };
 * const list = { 200: { content: { "application/json": { schema: { type: "array" } } } } };
 * if (!isOneItemPath({}, { get: { responses: object }, put: {} })) throw new Error();
 * if (isOneItemPath({}, { get: { responses: list }, put: {} })) throw new Error();
 * if (isOneItemPath({}, { get: { responses: object }, post: {} })) throw new Error();
 * ```
 */
export function isOneItemPath(doc: unknown, item: Node): boolean {
  if (!isNode(item.get) || item.post !== undefined) return false;
  const schemas = successes(doc, item.get).responses.map((r) => jsonSchema(doc, r));
  return schemas.length > 0 &&
    schemas.every((s) => isNode(s) && s.type !== "array" && s.items === undefined);
}

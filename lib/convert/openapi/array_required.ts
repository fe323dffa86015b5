/**
 * A `required` list written on an array, read as its object items' own.
 * JSON Schema gives `required` no meaning on an array, but hand-written
 * documents put it there beside `items` (a Trello-like API's board:
 * `columns: {type: array, items: {properties: {title, order}}, required:
 * [title, order]}`): its items were made `{}`, and the server refused the
 * board 400 (`columns.0.title should not be empty`). Read so only when
 * every name is a member of the items and they list none of their own.
 *
 * @module
 */
import { isNode, type Node } from "../../check/openapi_operations.ts";

/**
 * The items schema of array `s` to make a value of: with the array's
 * `required` when it names only the items' members and they require
 * nothing themselves; else `s.items` as it is. `resolve` follows a
 * `$ref` (examples.ts's `deref`).
 *
 * @example
 * ```ts
 * import { arrayItems } from "./array_required.ts";
 * const same = (n: unknown) => n;
 * const items = { type: "object", properties: { title: { type: "string" } } };
 * const got = arrayItems({ type: "array", items, required: ["title"] }, same) as { required?: string[] };
 * if (got.required?.join() !== "title") throw new Error();
 * if (arrayItems({ type: "array", items, required: ["colour"] }, same) !== items) throw new Error();
 * ```
 */
export function arrayItems(s: Node, resolve: (n: unknown) => unknown): unknown {
  const names = s.required;
  if (!Array.isArray(names) || names.length === 0) return s.items;
  const items = resolve(s.items);
  if (!isNode(items) || !isNode(items.properties) || items.required !== undefined) return s.items;
  const members = items.properties;
  const all = names.every((n) => typeof n === "string" && Object.hasOwn(members, n));
  return all ? { ...items, required: names } : s.items;
}

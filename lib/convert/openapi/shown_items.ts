/**
 * Whether a request body's list is shown by the document: a list of objects
 * whose items have a member with an example (`products: [{id: 1,
 * quantity: 1}]`), as its own docs' example value shows it, though the list
 * itself has none. An Express restaurant API's `Order` lists no
 * `required` and gives its examples only inside `products`' items: sent
 * without the list, the order was refused 400 (`"products" is required`).
 *
 * @module
 */
import { isNode, type Node } from "../../check/openapi_operations.ts";
import { showsValue } from "./prose_sample.ts";
import { plainNoun } from "./collection_nouns.ts";

/**
 * Whether `p` is a list of objects with a member the document gives an
 * example of; `resolve` follows a `$ref` (examples.ts's `deref`).
 *
 * @example
 * ```ts
 * import { showsItems } from "./shown_items.ts";
 * const same = (n: unknown) => n;
 * const line = { type: "object", properties: { quantity: { type: "integer", example: 1 } } };
 * if (!showsItems({ type: "array", items: line }, same)) throw new Error();
 * if (showsItems({ type: "array", items: { type: "string", example: "x" } }, same)) throw new Error();
 * if (showsItems({ type: "array", items: { properties: { note: { type: "string" } } } }, same)) {
 *   throw new Error();
 * }
 * ```
 */
export function showsItems(p: Node, resolve: (n: unknown) => unknown): boolean {
  if (p.type !== "array") return false;
  const items = resolve(p.items);
  if (!isNode(items) || !isNode(items.properties)) return false;
  const members = items.properties;
  return Object.keys(members).some((name) => showsValue(resolve(members[name])));
}

/**
 * Whether `p` is a list {@linkcode showsItems} whose items hold an `id`
 * (an integer, a UUID or an int64): each names an item of the list's noun
 * (`products: [{id, quantity}]`), which a create can make. A list of
 * values (Unleash's `legalValues: [{value}]`, PowerDNS's `rrsets`) holds
 * none, and stays out as before.
 *
 * @example
 * ```ts
 * import { listsItemIds } from "./shown_items.ts";
 * const same = (n: unknown) => n;
 * const line = { properties: { id: { type: "integer", example: 1 }, quantity: { type: "integer" } } };
 * if (!listsItemIds({ type: "array", items: line }, same)) throw new Error();
 * const value = { properties: { value: { type: "string", example: "gold" } } };
 * if (listsItemIds({ type: "array", items: value }, same)) throw new Error();
 * ```
 */
export function listsItemIds(p: Node, resolve: (n: unknown) => unknown): boolean {
  if (!showsItems(p, resolve)) return false;
  const items = resolve(p.items) as Node;
  const id = resolve((items.properties as Node).id);
  return isNode(id) && (id.type === "integer" || /^(uuid|u?int(32|64))$/.test(String(id.format)));
}

/**
 * Whether optional property `name` of a request's object that lists no
 * `required` at all (`unsaid`) is sent as a list of items of a collection
 * the paths address (`nouns`, collection_nouns.ts): {@linkcode listsItemIds}.
 *
 * @example
 * ```ts
 * import { sentItemList } from "./shown_items.ts";
 * const same = (n: unknown) => n;
 * const line = { properties: { id: { type: "integer", example: 1 } } };
 * const products = { type: "array", items: line };
 * if (!sentItemList("products", products, true, new Set(["product"]), same)) throw new Error();
 * if (sentItemList("products", products, false, new Set(["product"]), same)) throw new Error();
 * ```
 */
export function sentItemList(
  name: string,
  p: unknown,
  unsaid: boolean,
  nouns: ReadonlySet<string>,
  resolve: (n: unknown) => unknown,
): boolean {
  return unsaid && nouns.has(plainNoun(name)) && isNode(p) && listsItemIds(p, resolve);
}

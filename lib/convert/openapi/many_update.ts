/**
 * An update of many: a PATCH body that requires nothing and holds a list
 * of text (the items to update) and an object (what to change in them),
 * Directus's `PATCH /roles` `{keys: [...], data: {...}}`. Sent `{}`, it
 * updates nothing and is refused (400 `"data" is required`); it now sends
 * the list with one item (the flow's own, filled in by `listed_items.ts`
 * when the PATCH is sent to that item's collection) and the object with
 * something to change in it, as a PATCH of one item does
 * (`somethingToPatch`: its first text property). A body that is a list of
 * items keyed by `id` (`PATCH /items/{collection}`), sent `[{}]`, holds
 * one item so: its key and a change.
 *
 * @module
 */
import { isNode, type Node } from "../../check/openapi_operations.ts";
import { deref, type ExampleMaker } from "./examples.ts";
import { somethingToPatch } from "./patch_body.ts";
import { properties } from "./schema_properties.ts";

/**
 * `value`, or when it is `{}` and `schema` is an update of many (see the
 * module doc), the list with one item and the object with one change.
 *
 * @example
 * ```ts
 * import { manyToUpdate } from "./many_update.ts";
 * import { ExampleMaker } from "./examples.ts";
 * const schema = { properties: { keys: { type: "array", items: { type: "string" } },
 *   data: { type: "object", properties: { enabled: { type: "boolean" }, note: { type: "string" } } } } };
 * const got = manyToUpdate({}, new ExampleMaker({}), schema, {});
 * if (JSON.stringify(got) !== '{"keys":["string"],"data":{"note":"string"}}') throw new Error(JSON.stringify(got));
 * if (JSON.stringify(manyToUpdate({}, new ExampleMaker({}), schema, { keys: [] })) !== '{"keys":[]}') throw new Error();
 * const item = { properties: { id: { type: "integer" }, title: { type: "string" } } };
 * const batch = manyToUpdate({}, new ExampleMaker({}), { oneOf: [{ type: "array", items: item }, item] }, [{}]);
 * if (JSON.stringify(batch) !== '[{"id":1,"title":"string"}]') throw new Error(JSON.stringify(batch));
 * ```
 */
export function manyToUpdate(
  doc: unknown,
  maker: ExampleMaker,
  schema: unknown,
  value: unknown,
): unknown {
  if (Array.isArray(value)) return batchToUpdate(doc, maker, schema, value);
  if (!isNode(value) || Object.keys(value).length > 0) return value;
  const props = properties(doc, schema);
  const lists = props.filter(([, p]) => p.type === "array" && textItem(doc, p.items));
  const objects = props.map(([name, p]): [string, Node] => [name, oneBranch(doc, p)])
    .filter(([, p]) => p.type === "object" || isNode(p.properties));
  if (lists.length !== 1 || objects.length !== 1) return value;
  const [list, listSchema] = lists[0];
  const [object, objectSchema] = objects[0];
  const change = somethingToPatch(doc, maker, changeable(doc, objectSchema), {});
  if (!isNode(change) || Object.keys(change).length === 0) return value;
  return { [list]: [maker.make(deref(doc, listSchema.items)) ?? "string"], [object]: change };
}

/**
 * A list of items sent as `[{}]` to a body that is a list of objects keyed
 * by `id` (or a `oneOf` of such a list and one item: Directus's `PATCH
 * /items/{collection}`): one item, its key (the flow's own, filled in by
 * `listed_items.ts`) and one change, as a PATCH of one item sends.
 */
function batchToUpdate(doc: unknown, maker: ExampleMaker, schema: unknown, value: unknown[]) {
  if (value.length !== 1 || !isNode(value[0]) || Object.keys(value[0]).length > 0) return value;
  const s = deref(doc, schema);
  const branches = isNode(s)
    ? [s, ...[s.oneOf, s.anyOf].flatMap((b) => Array.isArray(b) ? b : [])]
    : [];
  const list = branches.map((b) => deref(doc, b)).find((b) => isNode(b) && b.type === "array");
  const item = isNode(list) ? deref(doc, list.items) : undefined;
  const key = isNode(item) ? properties(doc, item).find(([name]) => name === "id") : undefined;
  if (!isNode(item) || key === undefined) return value;
  const change = somethingToPatch(doc, maker, changeable(doc, item), {});
  if (!isNode(change) || Object.keys(change).length === 0) return value;
  return [{ id: maker.make(key[1]) ?? 1, ...change }];
}

/**
 * A schema that is one branch of `anyOf`/`oneOf`/`allOf` (Directus's `data: {anyOf: [$ref]}`) as that branch.
 *
 * @example
 * ```ts
 * import { oneBranch } from "./many_update.ts";
 * const item = { type: "object" };
 * if (oneBranch({}, { anyOf: [item] }) !== item) throw new Error();
 * ```
 */
export function oneBranch(doc: unknown, p: Node): Node {
  const branches = [p.anyOf, p.oneOf, p.allOf].find((b) => Array.isArray(b) && b.length === 1);
  const branch = Array.isArray(branches) ? deref(doc, branches[0]) : undefined;
  return isNode(branch) ? branch : p;
}

/**
 * The object's schema without what names an item rather than changes it:
 * its `id`, a `uuid` (changing the items' key is no update of them).
 *
 * @example
 * ```ts
 * import { changeable } from "./many_update.ts";
 * const got = changeable({}, { properties: { id: { type: "string" }, name: { type: "string" } } });
 * if (Object.keys(got.properties as object).join() !== "name") throw new Error();
 * ```
 */
export function changeable(doc: unknown, schema: Node): Node {
  const kept = properties(doc, schema).filter(([name, p]) =>
    name.toLowerCase() !== "id" && p.format !== "uuid"
  );
  return { ...schema, properties: Object.fromEntries(kept) };
}

/** Whether a list's item is free text (no enum: an enum names values, not items). */
function textItem(doc: unknown, items: unknown): boolean {
  const item = deref(doc, items);
  return isNode(item) && (item.type === "string" || item.type === undefined) &&
    !Array.isArray(item.enum);
}

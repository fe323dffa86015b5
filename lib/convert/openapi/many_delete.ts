/**
 * A delete of many described with nothing to select: `DELETE /roles`
 * ("Delete Multiple Roles") with no body and no parameter of its own,
 * beside `PATCH /roles`, an update of many that selects its items by a
 * list of their keys (`{keys: [...], data: {...}}`: many_update.ts), the
 * items at `/roles/{id}`. Sent bare, Directus 10 refuses each of its ten
 * such deletes (400 `"value" must contain at least one of [query, keys]`),
 * and a server taking a bare delete of a collection as "all of them" would
 * empty it. The document says how its path selects items (its update of
 * many's list), so the delete is read as taking that list: the step sends
 * it holding the flow's own item (`listed_items.ts` fills it in, and
 * orders the step among the deletes; `second_producer.ts` gives the
 * item's own delete a copy of the create). The evidence is the same path's
 * update of many, never a word of the names.
 *
 * @module
 */
import { isNode, type Node } from "../../check/openapi_operations.ts";
import { plainNoun } from "./collection_nouns.ts";
import { deref } from "./examples.ts";
import { listedItems } from "./listed_items.ts";
import { properties } from "./schema_properties.ts";
import { jsonBodySchema } from "./json_body.ts";

/** Whether a delete selects nothing: no request body, no parameter of its own but its path's. */
function selectsNothing(doc: unknown, node: Node): boolean {
  const params = Array.isArray(node.parameters) ? node.parameters : [];
  return node.requestBody === undefined &&
    params.every((p) => isNode(deref(doc, p)) && (deref(doc, p) as Node).in === "path");
}

/**
 * The request body a delete of many takes, read from its path's update of
 * many (see the module): an object requiring the list the update selects
 * its items by; none when the path has no such pair.
 */
function selectingBody(
  doc: unknown,
  template: string,
  item: Node,
): { list: string; body: Node } | undefined {
  const last = template.replace(/\/$/, "").split("/").at(-1) ?? "";
  if (!isNode(item.delete) || !isNode(item.patch) || last === "" || last.startsWith("{")) {
    return undefined;
  }
  if (!selectsNothing(doc, item.delete)) return undefined;
  // listed_items.ts reads the list of the collection at this very path (its items at `/roles/{id}`).
  const lists = listedItems(doc, item.patch).filter(([, noun]) => noun === plainNoun(last));
  if (lists.length !== 1) return undefined;
  const [list] = lists[0];
  const schema = properties(doc, jsonBodySchema(doc, item.patch)).find(([name]) => name === list)
    ?.[1];
  if (schema === undefined) return undefined;
  const object = { type: "object", required: [list], properties: { [list]: schema } };
  return { list, body: { required: true, content: { "application/json": { schema: object } } } };
}

/**
 * `doc` with each delete of many that selects nothing given the body its
 * path's update of many selects by (see the module), and a line for the
 * summary's inferred links per delete so read. The document is not
 * changed: the paths read are copies.
 *
 * @example
 * ```ts
 * import { selectedDeletes } from "./many_delete.ts";
 * const body = { content: { "application/json": { schema: { properties: {
 *   keys: { type: "array", items: { type: "string" } }, data: { type: "object" } } } } } };
 * const doc = { paths: { "/roles": { patch: { requestBody: body }, delete: {} }, "/roles/{id}": { delete: {} } } };
 * const { document, read } = selectedDeletes(doc);
 * const paths = document.paths as Record<string, { delete: { requestBody?: unknown } }>;
 * if (!read.join().startsWith("keys of DELETE /roles ← the list PATCH /roles") || paths["/roles"].delete.requestBody === undefined) throw new Error();
 * if ("requestBody" in doc.paths["/roles"].delete) throw new Error("the document was changed");
 * ```
 */
export function selectedDeletes(doc: Node): { document: Node; read: string[] } {
  const paths = isNode(doc.paths) ? doc.paths : undefined;
  if (paths === undefined) return { document: doc, read: [] };
  const read: string[] = [];
  const copied: Node = {};
  for (const [template, item] of Object.entries(paths)) {
    const selecting = isNode(item) ? selectingBody(doc, template, item) : undefined;
    if (selecting === undefined || !isNode(item) || !isNode(item.delete)) {
      copied[template] = item;
      continue;
    }
    copied[template] = { ...item, delete: { ...item.delete, requestBody: selecting.body } };
    read.push(
      `${selecting.list} of DELETE ${template} ← the list PATCH ${template} selects its items by, ` +
        "holding the flow's own item (the document describes no body)",
    );
  }
  return read.length === 0
    ? { document: doc, read }
    : { document: { ...doc, paths: copied }, read };
}

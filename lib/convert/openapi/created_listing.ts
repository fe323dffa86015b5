/**
 * Where the item a create made is found when the create's answer shows no
 * id: a Flask library API's `POST /book_titles` answers `201 {description}`
 * with no content, so a copy's `book_title_id` (body_links.ts) had no
 * producer and sent the type's sample (`1`), which names no title on a
 * fresh server. The listing of the same collection (`GET /book_titles` →
 * `{items: [{id, ..}], page}`) shows where its items' ids are: the value
 * is its first item's, read after the create so the list holds one (as a
 * path parameter of a listed item is, listing_values.ts), the list at the
 * top of its answer or inside its envelope (JSend's `{status, data:
 * {products: [..]}}`). The item's property of the body property's name, else its `id`.
 *
 * @module
 */
import { firstItemPath } from "./listing_values.ts";
import type { OpenApiOperation } from "./operations.ts";
import { jsonSchema, successes } from "./responses.ts";

/** The listing of a create's collection, and where its first item holds the id. */
export interface CreatedListing {
  producer: OpenApiOperation;
  path: string[];
}

/**
 * The listing (`GET` of the create's own collection) whose first item holds
 * the id `name` names, and its path; none when the document shows no such
 * listing or no id in its items.
 *
 * @example
 * ```ts
 * import { operationsOf } from "./operations.ts";
 * import { createdListing } from "./created_listing.ts";
 * const items = { type: "array", items: { properties: { id: { type: "integer" } } } };
 * const ok = { 200: { content: { "application/json": { schema: { properties: { items } } } } } };
 * const doc = { paths: { "/titles": { get: { responses: ok }, post: { responses: { 201: {} } } } } };
 * const [list, create] = operationsOf(doc);
 * const found = createdListing(doc, [list, create], create, "title_id");
 * if (found?.producer !== list || found.path.join(".") !== "items.0.id") throw new Error();
 * ```
 */
export function createdListing(
  doc: unknown,
  ops: OpenApiOperation[],
  create: OpenApiOperation,
  name: string,
): CreatedListing | undefined {
  const producer = ops.find((o) => o.method === "GET" && o.template === create.template);
  if (!producer) return undefined;
  const collection = create.template.replace(/\/$/, "").split("/").at(-1) ?? "";
  for (const response of successes(doc, producer.node).responses) {
    // The list at the top, else inside the answer's envelope (JSend's `data.products`).
    const path = firstItemPath(doc, jsonSchema(doc, response), name, collection, false, true);
    if (path) return { producer, path };
  }
  return undefined;
}

/**
 * The producers of a path parameter read from a listing: the first item of
 * the parameter's collection's listing (or of its parent's read), the run's
 * own item found by what its create sent (`own_listed.ts`), for
 * producers.ts, which tries them in its order.
 *
 * @module
 */
import { isCollection, type OpenApiOperation } from "./operations.ts";
import { responseSchemas } from "./response_paths.ts";
import { firstItemPath, hasExample, namedListing } from "./listing_values.ts";
import { ownListedLink } from "./own_listed.ts";
import { undescribedListingLink } from "./undescribed_listing.ts";
import type { ParamLink } from "./document_links.ts";

/** What the listing producers read of a document's operations (producers.ts's `Creates`). */
export interface Listings {
  readonly doc: unknown;
  /** Collection path (one with no parameter) → its GET, a listing. */
  readonly lists: Map<string, OpenApiOperation>;
  /** Item path (one ending in a parameter) → its GET. */
  readonly reads: Map<string, OpenApiOperation>;
  /** Collection path → its first POST. */
  readonly byCollection: Map<string, OpenApiOperation>;
}

/**
 * The first item of the listing of the parameter's collection (`GET /files` → `{filename}` of
 * `/files/{filename}`), for a resource no operation creates and the document gives no example
 * of: the item itself when the list holds text or numbers, else its property of the parameter's
 * name or its `id`; the list at the top or in an envelope property (`{boxes: […]}`). Only a
 * listing with no parameter of its own (one any flow can run); with `parentRead`, the read of the
 * item the collection belongs to, its array named for the collection (`links` of `GET
 * /features/{featureName}` for `/features/{featureName}/link/{linkId}`), tried after every other
 * producer; a parameter named for another collection (`{collection}` of `/fields/{collection}`)
 * reads that collection's listing (`namedListing`). After the collection's POST when there is
 * one, so the list is not empty; the run's own item then found as `own_listed.ts` says.
 *
 * @example
 * ```ts
 * import { fromListing } from "./listing_producer.ts";
 * import { operationsOf } from "./operations.ts";
 * const items = { type: "array", items: { properties: { filename: { type: "string" } } } };
 * const doc = { paths: { "/files": { get: { responses: { 200: {
 *   content: { "application/json": { schema: items } } } } } }, "/files/{filename}": { get: {} } } };
 * const [list, read] = operationsOf(doc);
 * const listings = { doc, lists: new Map([["/files", list]]), reads: new Map(), byCollection: new Map() };
 * if (fromListing(listings, read, "filename")?.path?.join(".") !== "0.filename") throw new Error();
 * ```
 */
export function fromListing(
  creates: Listings,
  op: OpenApiOperation,
  param: string,
  parentRead = false,
): ParamLink | undefined {
  const found = listingOf(creates, op, param, parentRead);
  if (!found) return undefined;
  const { producer, link, last, named } = found;
  for (const schema of responseSchemas(creates.doc, producer)) {
    const path = firstItemPath(creates.doc, schema, param, last, named);
    if (path) return ownListedLink(creates.doc, op, { ...link, path }, schema);
  }
  return named ? undefined : undescribedListingLink(creates.doc, op, producer, param, !!link.after);
}

/**
 * After every producer that reads a property by name: the parent's read (`fromListing`), else
 * the listing's list inside its answer's one object member (JSend's `data.brands`:
 * `firstItemPath`). A create answering `ordernumber` is better evidence than the first of a list
 * the run may have added nothing to.
 *
 * @example
 * ```ts
 * import { laterListing } from "./listing_producer.ts";
 * import { operationsOf } from "./operations.ts";
 * const brands = { type: "array", items: { properties: { id: { type: "number" } } } };
 * const jsend = { properties: { status: {}, data: { properties: { brands } } } };
 * const doc = { paths: { "/brands": { get: { responses: { 200: {
 *   content: { "application/json": { schema: jsend } } } } } }, "/brands/{id}": { put: {} } } };
 * const [list, put] = operationsOf(doc);
 * const listings = { doc, lists: new Map([["/brands", list]]), reads: new Map(), byCollection: new Map() };
 * if (laterListing(listings, put, "id")?.path?.join(".") !== "data.brands.0.id") throw new Error();
 * ```
 */
export function laterListing(creates: Listings, op: OpenApiOperation, param: string) {
  const parents = fromListing(creates, op, param, true);
  const found = parents ? undefined : listingOf(creates, op, param, false);
  if (!found) return parents;
  const { producer, link, last, named } = found;
  for (const schema of responseSchemas(creates.doc, producer)) {
    const path = firstItemPath(creates.doc, schema, param, last, named, true);
    if (path) return ownListedLink(creates.doc, op, { ...link, path }, schema);
  }
  return undefined;
}

/** The listing `fromListing` reads, its link without a path, the collection's last segment. */
function listingOf(creates: Listings, op: OpenApiOperation, param: string, parentRead: boolean) {
  const at = op.template.indexOf(`/{${param}}`);
  // A parameter named for another collection (`/fields/{collection}`) is listed there.
  const other = parentRead ? undefined : namedListing(op.template, param, creates.lists.keys());
  const collection = other ?? op.template.slice(0, at);
  const parent = collection.slice(0, collection.lastIndexOf("/"));
  const producer = at <= 0
    ? undefined
    : !parentRead
    ? creates.lists.get(collection)
    : isCollection(parent)
    ? undefined
    : creates.reads.get(parent);
  const p = op.params.find((x) => x.in === "path" && x.name === param);
  if (!producer || producer === op || (p && hasExample(creates.doc, p))) return undefined;
  const after = creates.byCollection.get(collection);
  const last = collection.split("/").at(-1) ?? "";
  const link = { param, producer, from: "listing" as const, ...(after ? { after } : {}) };
  // A listing of another collection, or the parent's read; not the same one written with a slash.
  const named = producer.template.replace(/\/$/, "") !== collection;
  return { producer, link, last, named };
}

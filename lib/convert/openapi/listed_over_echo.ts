/**
 * A listing that describes its items' id, before a create's answer
 * documented as echoing its body. A create documented as answering its
 * body's own schema, naming no identifier, says nothing of the id the
 * server adds, and the id is searched for in its answer
 * (undescribed_answer.ts). Where the listing of the item's collection
 * describes its items with the parameter's member, the document does say
 * where the id is shown. drf-spectacular, without
 * `COMPONENT_SPLIT_REQUEST`, gives a write serializer one schema both ways:
 * a blog API's `PostWrite {title, body, …}` is the create's body and its
 * 201, and the posts are listed as `PostList {id (readOnly), …}`; the
 * server answers the create with the write serializer's members, no `id`,
 * and every read, update, delete and action of the post was skipped. The
 * listing then gives the id, after the create, the run's own item found by
 * what the create sent (listing_producer.ts, own_listed.ts).
 *
 * @module
 */
import { fromListing, type Listings } from "./listing_producer.ts";
import type { ParamLink } from "./document_links.ts";
import type { OpenApiOperation } from "./operations.ts";

/**
 * `searched` (a create's answer searched for `param`, itemAnswerLink),
 * unless the listing of `op`'s collection describes its items with
 * `param`'s member: then undefined, the listing's producer being the next
 * rule tried.
 *
 * @example
 * ```ts
 * import { unlessListed } from "./listed_over_echo.ts";
 * import { operationsOf } from "./operations.ts";
 * const items = { type: "array", items: { properties: { id: { type: "integer" } } } };
 * const doc = { paths: { "/posts": { get: { responses: { 200: {
 *   content: { "application/json": { schema: items } } } } } }, "/posts/{id}": { get: {} } } };
 * const [list, read] = operationsOf(doc);
 * const listings = { doc, lists: new Map([["/posts", list]]), reads: new Map(), byCollection: new Map() };
 * const searched = { param: "id", producer: list, path: [], from: "parent" as const, search: ["id"] };
 * if (unlessListed(listings, read, "id", searched) !== undefined) throw new Error();
 * if (unlessListed({ ...listings, lists: new Map() }, read, "id", searched) !== searched) throw new Error();
 * ```
 */
export function unlessListed(
  listings: Listings,
  op: OpenApiOperation,
  param: string,
  searched: ParamLink | undefined,
): ParamLink | undefined {
  if (!searched) return undefined;
  const listed = fromListing(listings, op, param);
  // Described: a path into the listed items, not a search of an undescribed listing.
  return listed && listed.path.length > 0 && !listed.search ? undefined : searched;
}

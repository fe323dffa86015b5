/**
 * A listing read for what a create made runs after that create. A link
 * read from a listing `after` a create (the run's own item, own_listed.ts)
 * made its reader wait for both, but not the listing for the create: a
 * blog API's comment create waits for the posts' listing (its `post`), so
 * the comments' listing, which waits for nothing, ran first, listed no
 * comment, and every read, update, delete and action of the comment was
 * skipped. The evidence is the link itself: what it reads is listed only
 * once the create has run.
 *
 * @module
 */
import type { ParamLink } from "./document_links.ts";
import type { OpenApiOperation } from "./operations.ts";

/**
 * Each pair [create, listing] of `ordered` where a link of an operation
 * in `ordered` reads the listing after the create.
 *
 * @example
 * ```ts
 * import { listingsAfterCreates } from "./listed_after_create.ts";
 * const create = { method: "POST", template: "/c" } as never;
 * const list = { method: "GET", template: "/c" } as never;
 * const read = { method: "GET", template: "/c/{id}" } as never;
 * const link = { param: "id", producer: list, path: ["results", "0", "id"], from: "listing" as const, after: create };
 * const pairs = listingsAfterCreates([list, create, read], () => [link]);
 * if (pairs.length !== 1 || pairs[0][0] !== create || pairs[0][1] !== list) throw new Error();
 * ```
 */
export function listingsAfterCreates(
  ordered: OpenApiOperation[],
  links: (op: OpenApiOperation) => ParamLink[],
): [OpenApiOperation, OpenApiOperation][] {
  const present = new Set(ordered);
  const pairs = new Map<string, [OpenApiOperation, OpenApiOperation]>();
  const index = new Map(ordered.map((o, i) => [o, i]));
  for (const op of ordered) {
    for (const { after, producer, from } of links(op)) {
      if (from !== "listing" || !after || after === producer) continue;
      if (!present.has(after) || !present.has(producer)) continue;
      pairs.set(`${index.get(after)} ${index.get(producer)}`, [after, producer]);
    }
  }
  return [...pairs.values()];
}

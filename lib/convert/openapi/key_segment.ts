/**
 * An item addressed by another of its keys under a segment that names the
 * key: `GET /products/slug/{slug}` beside `POST /products` and
 * `GET /products/{id}` (a NestJS store API, 2025; `/users/email/{email}`,
 * `/books/by-isbn/{isbn}` elsewhere). The segment right before the
 * parameter spells the parameter's own name (alone, or after `by`), and the
 * segment before it is a noun's: the item is one of that noun's collection,
 * which its create makes and whose answer holds the key (the server makes a
 * slug of the title). Before, `/products/slug` was read as the collection,
 * nothing made its items, and the summary asked for "the slug of one that
 * exists", which a fresh server has none of.
 *
 * @module
 */
import type { ParamLink } from "./document_links.ts";
import type { OpenApiOperation } from "./operations.ts";
import { plainName } from "./required_props.ts";
import { propertyPaths } from "./response_paths.ts";
import { searchedLink } from "./undescribed_answer.ts";

/**
 * The collection a parameter addresses its item in by a key segment (see
 * the module), else undefined.
 *
 * @example
 * ```ts
 * import { keyedCollection } from "./key_segment.ts";
 * if (keyedCollection("/api/products/slug/{slug}", "slug") !== "/api/products") throw new Error();
 * if (keyedCollection("/products/slug/{slug}/related", "slug") !== "/products") throw new Error();
 * if (keyedCollection("/books/by-isbn/{isbn}", "isbn") !== "/books") throw new Error();
 * if (keyedCollection("/products/{id}", "id") || keyedCollection("/slug/{slug}", "slug")) throw new Error();
 * if (keyedCollection("/{org}/name/{name}", "name") || keyedCollection("/a/tag/{id}", "id")) throw new Error();
 * ```
 */
export function keyedCollection(template: string, param: string): string | undefined {
  const segments = template.split("/");
  const at = segments.indexOf(`{${param}}`);
  if (at < 3) return undefined;
  const key = plainName(segments[at - 1]);
  const name = plainName(param);
  const noun = segments[at - 2];
  if (name === "" || (key !== name && key !== `by${name}`) || noun === "" || noun.startsWith("{")) {
    return undefined;
  }
  return segments.slice(0, at - 1).join("/");
}

/**
 * The link of `param` of `op` to the create of the collection a key segment
 * puts its item in (`byCollection`: collection path → its create), read by
 * the key's own name only, never as the item's `id` (Compute's
 * `/images/family/{family}` names a group of images, not the image a create
 * answers): the create's described property, else searched for in an
 * answer the document leaves undescribed; else none.
 *
 * @example
 * ```ts
 * import { keyedLink } from "./key_segment.ts";
 * import { operationsOf } from "./operations.ts";
 * const ops = operationsOf({ paths: {
 *   "/products": { post: { responses: { "201": { description: "" } } } },
 *   "/products/slug/{slug}": { get: { responses: { "200": { description: "" } } } },
 * } });
 * const link = keyedLink({}, new Map([["/products", ops[0]]]), ops[1], "slug");
 * if (link?.producer !== ops[0] || link.search?.join() !== "slug") throw new Error();
 * ```
 */
export function keyedLink(
  doc: unknown,
  byCollection: ReadonlyMap<string, OpenApiOperation>,
  op: OpenApiOperation,
  param: string,
): ParamLink | undefined {
  const producer = byCollection.get(keyedCollection(op.template, param) ?? "");
  if (!producer || producer === op) return undefined;
  const path = propertyPaths(doc, producer).get(plainName(param));
  if (path) return { param, producer, path, from: "parent" };
  const searched = searchedLink(doc, producer, param);
  return searched && { ...searched, search: [param] };
}

/**
 * A write of many that a query filters: `PUT /authors/?where.id.eq=…`
 * (Platformatic DB), `DELETE /items?filter[id][eq]=…`, a write to a
 * collection's own path whose items live at `/authors/{id}` and whose
 * query takes an equality filter on that id. Sent with no filter it writes
 * every item of the collection, other flows' too, or is refused (400
 * "Missing where clause"); the flow sends the filter naming its own item,
 * the id its create answered, as the item's own write does.
 *
 * @module
 */
import type { Node } from "../../check/openapi_operations.ts";
import type { ParamLink } from "./document_links.ts";
import type { OpenApiOperation } from "./operations.ts";
import { escapeRegExp } from "../../_util/regex_escape.ts";

/** What a collection's creates and reads give (producers.ts's `Creates`). */
export interface CollectionIndex {
  /** Collection path → its first POST. */
  byCollection: Map<string, OpenApiOperation>;
  /** Item path (one ending in a parameter) → its GET. */
  reads: Map<string, OpenApiOperation>;
  /** The path of a parameter's value in a create's answer. */
  pathIn(producer: OpenApiOperation, param: string): string[] | undefined;
}

const WRITES = new Set(["PUT", "PATCH", "DELETE"]);
/** Words around a field's name in a filter parameter that say "equals" or "filter". */
const EQUALS = new Set(["eq", "equals", "is"]);
const FILTER = new Set(["where", "filter", "filters", "q"]);

/**
 * Whether the query parameter `name` is an equality filter on the field
 * `field`: its words are the field and words of filtering, the last an
 * equality (`where.id.eq`, `filter[id][eq]`, `id[eq]`) or the field alone
 * after a filter word (`filter[id]`).
 *
 * @example
 * ```ts
 * import { equalsFilter } from "./own_filter.ts";
 * if (!equalsFilter("where.id.eq", "id") || !equalsFilter("filter[id]", "id")) throw new Error();
 * if (equalsFilter("where.id.neq", "id") || equalsFilter("where.name.eq", "id")) throw new Error();
 * ```
 */
export function equalsFilter(name: string, field: string): boolean {
  const words = name.split(/[^A-Za-z0-9]+/).filter((w) => w !== "");
  const at = words.indexOf(field);
  if (at < 0 || words.length < 2) return false;
  const before = words.slice(0, at).every((w) => FILTER.has(w.toLowerCase()));
  const after = words.slice(at + 1).map((w) => w.toLowerCase());
  if (after.length === 0) return before && at > 0;
  return before && after.length === 1 && EQUALS.has(after[0]);
}

/**
 * The link of the equality filter on the item's id of a write of many (see
 * the module doc) to the create of its collection; none for another call.
 *
 * @example
 * ```ts
 * import { ownFilterLinks } from "./own_filter.ts";
 * import type { OpenApiOperation } from "./operations.ts";
 * const create = { method: "POST", template: "/authors/" } as OpenApiOperation;
 * const read = { method: "GET", template: "/authors/{id}" } as OpenApiOperation;
 * const put = { method: "PUT", template: "/authors/", params: [{ name: "where.id.eq", in: "query" }] };
 * const index = { byCollection: new Map([["/authors", create]]), reads: new Map([["/authors/{id}", read]]),
 *   pathIn: () => ["id"] };
 * const links = ownFilterLinks(index, put as unknown as OpenApiOperation);
 * if (links[0]?.param !== "where.id.eq" || links[0].producer !== create) throw new Error();
 * ```
 */
export function ownFilterLinks(index: CollectionIndex, op: OpenApiOperation): ParamLink[] {
  if (!WRITES.has(op.method) || op.template.includes("{")) return [];
  const collection = op.template.replace(/\/$/, "");
  const producer = index.byCollection.get(collection);
  if (!producer) return [];
  for (const item of index.reads.keys()) {
    const param = new RegExp(`^${escape(collection)}/\\{([^}]+)\\}$`).exec(item)?.[1];
    if (param === undefined) continue;
    const path = index.pathIn(producer, param);
    const filter = (op.params as Node[]).find((p) =>
      p.in === "query" && typeof p.name === "string" && equalsFilter(p.name, path?.at(-1) ?? "")
    );
    if (path && filter) return [{ param: String(filter.name), producer, path, from: "parent" }];
  }
  return [];
}

function escape(text: string): string {
  return escapeRegExp(text);
}

/**
 * What reads an item runs before what ends it. A flow's usual order puts
 * the deletes after the reads and updates, and an action alone on a path
 * of no parameter (a Hono backend's `POST /api/articleTags` with
 * `{articleId, tagIds}`) after the deletes, as an action on the whole API;
 * but that action names the tag `DELETE /api/tag/{id}` had just deleted,
 * and the backend answered 500. An operation reading what a producer made
 * (in its path, query or body) now runs before the DELETE of that item,
 * whatever their ranks, unless it is that item's producer or end too, or
 * the DELETE runs before it for what it reads.
 *
 * @module
 */
import type { ParamLink } from "./document_links.ts";
import type { OpenApiOperation } from "./operations.ts";

/**
 * The producer whose item `op` ends: a DELETE of an item's path, its last
 * segment a parameter read from that producer (`links`: `op`'s path links).
 *
 * @example
 * ```ts
 * import { endedBy } from "./read_before_end.ts";
 * const create = { method: "POST", template: "/tags" } as never;
 * const remove = { method: "DELETE", template: "/tags/{id}" } as never;
 * const link = { param: "id", producer: create, path: ["id"], from: "property" as const };
 * if (endedBy(remove, [link]) !== create || endedBy(create, [])) throw new Error();
 * ```
 */
export function endedBy(op: OpenApiOperation, links: ParamLink[]): OpenApiOperation | undefined {
  if (op.method !== "DELETE") return undefined;
  const param = /\/\{([^}]+)\}\/?$/.exec(op.template)?.[1];
  return links.find((l) => l.param === param)?.producer;
}

/**
 * The pairs `[reader, ender]` of `ops` where `reader` must run before
 * `ender`: `ender` ends the item a producer made ({@linkcode endedBy}) and
 * `reader` reads that producer (`dependencies`), is neither it nor an end
 * of the same item, and reads nothing from `ender`.
 *
 * @example
 * ```ts
 * import { readsBeforeEnd } from "./read_before_end.ts";
 * const create = { method: "POST", template: "/tags" } as never;
 * const remove = { method: "DELETE", template: "/tags/{id}" } as never;
 * const tag = { method: "POST", template: "/articleTags" } as never;
 * const link = { param: "id", producer: create, path: ["id"], from: "property" as const };
 * const links = (op: unknown) => op === remove ? [link] : [];
 * const deps = (op: unknown) => op === create ? [] : [create];
 * const pairs = readsBeforeEnd([create, remove, tag], links, deps);
 * if (pairs.length !== 1 || pairs[0][0] !== tag || pairs[0][1] !== remove) throw new Error();
 * ```
 */
export function readsBeforeEnd(
  ops: OpenApiOperation[],
  links: (op: OpenApiOperation) => ParamLink[],
  dependencies: (op: OpenApiOperation) => OpenApiOperation[],
): [OpenApiOperation, OpenApiOperation][] {
  const out: [OpenApiOperation, OpenApiOperation][] = [];
  for (const ender of ops) {
    const producer = endedBy(ender, links(ender));
    if (producer === undefined) continue;
    for (const reader of ops) {
      if (reader === ender || reader === producer) continue;
      if (endedBy(reader, links(reader)) === producer) continue;
      const reads = dependencies(reader);
      if (reads.includes(producer) && !reads.includes(ender)) out.push([reader, ender]);
    }
  }
  return out;
}

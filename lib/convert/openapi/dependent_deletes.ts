/**
 * An item is deleted before what it was made from. A flow's deletes run
 * deepest path first, then in document order; but sibling collections
 * have paths of one depth, and an item may be made from another by its
 * create's body (a Django REST API's `POST /plays` with `{playbook}`,
 * `POST /results` with `{playbook, play, task, host}`). Its router listed
 * the playbooks first, so their DELETE ran first; the server deleted the
 * plays, tasks, hosts and results made from the playbook with it (a
 * foreign key's `ON DELETE CASCADE`) and their six DELETEs answered 404. A
 * server that refuses to delete an item still in use (409) wants the same
 * order. So a DELETE now runs before the DELETE of every item its own
 * item's create read, directly or through the creates it read (a comment
 * made from a note made from a folder, where the document deletes no note).
 *
 * @module
 */
import type { ParamLink } from "./document_links.ts";
import type { OpenApiOperation } from "./operations.ts";
import { endedBy } from "./read_before_end.ts";

/**
 * The pairs `[first, then]` of `ops`, both DELETEs ending items
 * ({@linkcode endedBy}), where the item `then` ends is one the create of
 * the item `first` ends read, directly or through `dependencies`.
 *
 * @example
 * ```ts
 * import { deletesBeforeSources } from "./dependent_deletes.ts";
 * const folder = { method: "POST", template: "/folders" } as never;
 * const note = { method: "POST", template: "/notes" } as never;
 * const dropFolder = { method: "DELETE", template: "/folders/{id}" } as never;
 * const dropNote = { method: "DELETE", template: "/notes/{id}" } as never;
 * const link = (producer: unknown) => [{ param: "id", producer, path: ["id"], from: "property" as const }];
 * const links = (op: unknown) => op === dropFolder ? link(folder) : op === dropNote ? link(note) : [];
 * const deps = (op: unknown) => op === note ? [folder] : [];
 * const pairs = deletesBeforeSources([folder, note, dropFolder, dropNote], links as never, deps);
 * if (pairs.length !== 1 || pairs[0][0] !== dropNote || pairs[0][1] !== dropFolder) throw new Error();
 * ```
 */
export function deletesBeforeSources(
  ops: OpenApiOperation[],
  links: (op: OpenApiOperation) => ParamLink[],
  dependencies: (op: OpenApiOperation) => OpenApiOperation[],
): [OpenApiOperation, OpenApiOperation][] {
  const enders = new Map<OpenApiOperation, OpenApiOperation[]>();
  const ended = new Map<OpenApiOperation, OpenApiOperation>();
  for (const op of ops) {
    const producer = endedBy(op, links(op));
    if (producer === undefined) continue;
    ended.set(op, producer);
    enders.set(producer, [...enders.get(producer) ?? [], op]);
  }
  const out: [OpenApiOperation, OpenApiOperation][] = [];
  if (enders.size < 2) return out;
  for (const [first, producer] of ended) {
    for (const source of madeFrom(producer, dependencies)) {
      if (source === producer) continue;
      for (const then of enders.get(source) ?? []) out.push([first, then]);
    }
  }
  return out;
}

/** What `producer` read, transitively (a depth-first walk; each operation once). */
function madeFrom(
  producer: OpenApiOperation,
  dependencies: (op: OpenApiOperation) => OpenApiOperation[],
): Set<OpenApiOperation> {
  const seen = new Set<OpenApiOperation>();
  const stack = [...dependencies(producer)];
  while (stack.length > 0) {
    const op = stack.pop()!;
    if (seen.has(op)) continue;
    seen.add(op);
    stack.push(...dependencies(op));
  }
  return seen;
}

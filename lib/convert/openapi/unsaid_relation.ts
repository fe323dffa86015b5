/**
 * A relation of a body whose schema requires nothing: a kanban API on Express describes its
 * column's create as `{name, BoardId}` and its task's as `{name, ColumnId, BoardId}`, no
 * `required` list at all, and its validators refuse them without the ids (400 "Invalid value" at
 * `BoardId`). Such a schema says nothing of what is needed, so a top-level member named as an id
 * of a noun (`BoardId`, `board_id`) is sent as a required one is, the run's own item of that noun
 * (body_links.ts), when the document shows where a create or a listing holds it (no run-time
 * search). Not the noun itself (GitHub's issue `milestone` is a number, not the milestone's `id`),
 * nor a bare `id`, nor any member of a schema with a `required` list.
 *
 * @module
 */
import { isNode } from "../../check/openapi_operations.ts";

// A member named as an id of a noun (`BoardId`, `board_id`), not the noun itself nor a bare `id`.
const ID_SUFFIXED = /[A-Za-z0-9](?:Id|ID|[_-]id)$/;

/**
 * Whether an optional top-level member of a body schema `whole` is sent as a relation: the schema
 * lists no `required` at all (it says nothing of what is needed; a kanban API's column create
 * `{name, BoardId}` was refused 400 without its board), and the member is named as an id of a noun.
 *
 * @example
 * ```ts
 * import { looseRelation } from "./unsaid_relation.ts";
 * const loose = looseRelation({ properties: {} }, new Set());
 * if (!loose("BoardId") || loose("milestone") || loose("id")) throw new Error();
 * if (looseRelation({ required: ["name"] }, new Set(["name"]))("BoardId")) throw new Error();
 * if (looseRelation({ properties: {} }, new Set(), true)("BoardId")) throw new Error();
 * ```
 */
export function looseRelation(
  whole: unknown,
  required: Set<string>,
  rpc = false,
): (name: string) => boolean {
  // A gRPC gateway's messages list no `required` by nature (proto3): silence says nothing there
  // (etcd's member calls were sent ids of its own items: 32 → 31 of 41).
  const unsaid = !rpc && isNode(whole) && !Array.isArray(whole.required) &&
    !Array.isArray(whole.allOf);
  return (name) => unsaid && !required.has(name) && ID_SUFFIXED.test(name);
}

/**
 * What an item's update answers, read for which item is the account's own
 * when the item's read describes none. An Express API documented by
 * swagger-jsdoc (a school planner on PostgreSQL, measured by hand) reads
 * `GET /users/accounts/{id}` as `{data: object}`, nothing said of its
 * members, and answers `PUT /users/accounts/{id}` with `{message, data: {id,
 * email, first_name, last_name, active, profile_img, role}}`: every field its
 * sign-up sends but the password, and an id, the account that sign-up made.
 * The read's id had come from an administrator's listing (403, so the read
 * was skipped) and the update's was a placeholder `1`. The objects an item's
 * update answers (its top, and each member one level down: an Express
 * envelope's `data`) stand in for the read's own; `own_item_link.ts` weighs
 * them as it weighs a read's answer. Only when the read shows no object of
 * its own holding an id.
 *
 * @module
 */
import type { Node } from "../../check/openapi_operations.ts";
import type { OpenApiOperation } from "./operations.ts";
import { plainName, responseSchemas } from "./producers.ts";
import { properties } from "./schema_properties.ts";

/** The plain names of each object `op`'s 2xx answers show at the top or one member down. */
function objectsOf(doc: Node, op: OpenApiOperation): Set<string>[] {
  const out: Set<string>[] = [];
  for (const schema of responseSchemas(doc, op)) {
    const top = properties(doc, schema);
    if (top.length > 1) out.push(new Set(top.map(([n]) => plainName(n))));
    for (const [, member] of top) {
      const names = properties(doc, member).map(([n]) => plainName(n));
      if (names.length > 1) out.push(new Set(names));
    }
  }
  return out;
}

/**
 * The objects (their plain member names) that `read`'s item's update (a PUT
 * or PATCH of the same path) answers holding one of `ids`, when `read`'s own
 * answers show no object holding one; none otherwise.
 *
 * @example
 * ```ts
 * import { updateAnswered } from "./update_answer.ts";
 * import { operationsOf } from "./operations.ts";
 * const json = (schema: unknown) => ({ content: { "application/json": { schema } } });
 * const data = { properties: { id: {}, email: {} } };
 * const doc = { paths: { "/users/{id}": {
 *   get: { responses: { 200: json({ properties: { data: { type: "object" } } }) } },
 *   put: { responses: { 200: json({ properties: { message: {}, data } }) } },
 * } } };
 * const [read] = operationsOf(doc);
 * const got = updateAnswered(doc, operationsOf(doc), read, new Set(["id"]));
 * if (JSON.stringify(got.map((s) => [...s])) !== '[["id","email"]]') throw new Error();
 * ```
 */
export function updateAnswered(
  doc: Node,
  ops: OpenApiOperation[],
  read: OpenApiOperation,
  ids: Set<string>,
): Set<string>[] {
  const holds = (names: Set<string>) => [...names].some((n) => ids.has(n));
  if (objectsOf(doc, read).some(holds)) return [];
  const update = ops.find((o) =>
    o.template === read.template && (o.method === "PUT" || o.method === "PATCH")
  );
  return update ? objectsOf(doc, update).filter(holds) : [];
}

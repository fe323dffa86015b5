/**
 * What answers the item an update or delete writes, as a read would: the
 * item's own GET, else the items of its collection's listing. A NestJS
 * auth API documents `GET /auth/users` (a list of `User`), `DELETE
 * /auth/users/{id}` and `PATCH /auth/users/{id}/role`, and no `GET
 * /auth/users/{id}`: the writes took `{id}` from the listing's first item,
 * and run 1 deleted the administrator itself. The listing's items have the
 * shape the sign-up answers its account with, so `own_item_link.ts` reads
 * them as the account's, and the writes take the run's own id.
 *
 * The write may name the item by a parameter followed by one word
 * (`/users/{id}/role`): that parameter is the item's, as in `/users/{id}`.
 * Only writes (PUT, PATCH, DELETE): a read of `/users/{id}/posts` answers
 * something else than the item.
 *
 * @module
 */
import { isNode, type Node } from "../../check/openapi_operations.ts";
import { deref } from "./examples.ts";
import type { OpenApiOperation } from "./operations.ts";
import { responseSchemas } from "./response_paths.ts";
import { properties } from "./schema_properties.ts";

const WRITES = new Set(["PUT", "PATCH", "DELETE"]);

/**
 * The item parameter of `op` and the item's own template: the last
 * parameter ending the template, or (a write) followed by one word.
 *
 * @example
 * ```ts
 * import { itemParam } from "./listed_read.ts";
 * const op = (method: string, template: string) => ({ method, template }) as never;
 * if (itemParam(op("PATCH", "/users/{id}/role"))?.join() !== "id,/users/{id}") throw new Error();
 * if (itemParam(op("GET", "/users/{id}/role")) !== undefined) throw new Error();
 * ```
 */
export function itemParam(op: OpenApiOperation): [string, string] | undefined {
  const end = /\{([^}]+)\}\/?$/.exec(op.template);
  if (end) return [end[1], op.template.slice(0, end.index + end[0].length).replace(/\/$/, "")];
  const word = /\{([^}]+)\}\/[A-Za-z_-]+\/?$/.exec(op.template);
  if (!word || !WRITES.has(op.method)) return undefined;
  return [word[1], op.template.slice(0, word.index + word[1].length + 2)];
}

/** The items schema of a listing's answer: a top-level array, or the one array property. */
function listedItems(doc: Node, schema: unknown): unknown {
  const s = deref(doc, schema);
  if (isNode(s) && s.type === "array") return s.items;
  const lists = properties(doc, s).filter(([, p]) => p.type === "array");
  return lists.length === 1 ? lists[0][1].items : undefined;
}

/**
 * The read answering the item `op` reads or writes (see the module): the
 * item's GET, else a stand-in whose 200 answers the listing's item schema.
 *
 * @example
 * ```ts
 * import { itemRead } from "./listed_read.ts";
 * import { operationsOf } from "./operations.ts";
 * const user = { properties: { id: {}, email: {} } };
 * const list = { 200: { content: { "application/json": { schema: { type: "array", items: user } } } } };
 * const doc = { paths: { "/users": { get: { responses: list } }, "/users/{id}": { delete: {} } } };
 * const ops = operationsOf(doc);
 * const read = itemRead(doc, ops, ops[1]);
 * if (read?.template !== "/users/{id}" || read.method !== "GET") throw new Error();
 * ```
 */
export function itemRead(
  doc: Node,
  ops: OpenApiOperation[],
  op: OpenApiOperation,
): OpenApiOperation | undefined {
  const item = itemParam(op)?.[1];
  if (item === undefined) return undefined;
  const own = ops.find((o) => o.method === "GET" && o.template === item);
  if (own || op.method === "GET") return own;
  const collection = item.slice(0, item.lastIndexOf("/"));
  const listing = ops.find((o) => o.method === "GET" && o.template === collection);
  if (!listing) return undefined;
  const items = responseSchemas(doc, listing).map((s) => listedItems(doc, s)).find(isNode);
  if (!items) return undefined;
  const content = { "application/json": { schema: items } };
  const node = { responses: { "200": { description: "listed", content } } };
  return { ...op, method: "GET", template: item, node };
}

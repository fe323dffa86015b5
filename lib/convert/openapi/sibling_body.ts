/**
 * The body of a create the document gives none, from its item's update: a
 * course's tasks API documents `POST /tasks` with no `requestBody` and its
 * item's update, `POST /tasks/{uuid}`, taking a `task` (`description`
 * required). The server inserts the create's `description`; sent nothing,
 * the database refused it and the unhandled rejection stopped the server.
 * What an item's update takes is the document's own description of an item
 * as the client writes it, so a create at that collection that declares
 * nothing to send (no body, no query, no header, no form) sends that body: PUT's (the
 * whole item) before PATCH's before POST's. The read-only members are left
 * to the server as in any request body.
 *
 * @module
 */
import { isNode, type Node } from "../../check/openapi_operations.ts";
import { isCollection, type OpenApiOperation } from "./operations.ts";

/** The update methods whose body describes an item, the whole item's first. */
const UPDATES = ["put", "patch", "post"];

/**
 * The request body of the update of `op`'s item, when `op` is a POST to a collection that
 * declares nothing to send.
 *
 * @example
 * ```ts
 * import { siblingBody } from "./sibling_body.ts";
 * const body = { content: { "application/json": { schema: { properties: { text: {} } } } } };
 * const doc = { paths: { "/notes": { post: {} }, "/notes/{id}": { patch: { requestBody: body } } } };
 * const op = { method: "POST", template: "/notes", node: {}, params: [] } as never;
 * if (siblingBody(doc, op) !== body) throw new Error();
 * if (siblingBody(doc, { ...op as object, node: { requestBody: {} } } as never) !== undefined) throw new Error();
 * ```
 */
export function siblingBody(doc: unknown, op: OpenApiOperation): unknown {
  if (op.method !== "POST" || !isCollection(op.template) || op.node.requestBody !== undefined) {
    return undefined;
  }
  // A header of its own is something it sends (Glacier's initiate of a multipart upload takes its
  // part size so, and its item's PUT a part's bytes, no description of the upload).
  if (op.params.some((p) => p.in !== "path")) return undefined;
  const base = op.template.replace(/\/$/, "");
  const paths = isNode(doc) && isNode(doc.paths) ? doc.paths : {};
  const items = Object.entries(paths).filter(([t]) =>
    t.startsWith(`${base}/`) && /^\{[^}/]+\}\/?$/.test(t.slice(base.length + 1))
  ).map(([, item]) => item).filter(isNode);
  for (const method of UPDATES) {
    for (const item of items) {
      const update = item[method];
      if (isNode(update) && update.requestBody !== undefined) return update.requestBody;
    }
  }
  return undefined;
}

/**
 * `node` with the request body of its item's update ({@linkcode siblingBody}), else as it is.
 *
 * @example
 * ```ts
 * import { withSiblingBody } from "./sibling_body.ts";
 * const op = { method: "POST", template: "/notes", node: {}, params: [] } as never;
 * if (withSiblingBody({ paths: {} }, op, { summary: "x" }).requestBody !== undefined) throw new Error();
 * ```
 */
export function withSiblingBody(doc: unknown, op: OpenApiOperation, node: Node): Node {
  const body = siblingBody(doc, op);
  return body === undefined ? node : { ...node, requestBody: body };
}

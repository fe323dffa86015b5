/**
 * A PUT (or POST) at an item's own path that documents a 404 updates an
 * item that exists; it makes none at a URL the client names. An Express
 * shop's `PUT /users/{id}` and `PUT /orders/{id}` (`swagger-autogen`
 * comments: "returned when the API fails to find a user with the provided
 * user id") have no POST beside them, so each was read as the create of its
 * collection (operations.ts), its id a made-up one (`id-${RANDOM.HEX_8}`),
 * 404. The evidence is the document's own answer for an item it cannot find;
 * WireMock's `PUT /__admin/files/{fileId}`, which makes the file, documents
 * none.
 *
 * @module
 */
import { isNode, type Node } from "../../check/openapi_operations.ts";

/**
 * Whether `op` (its method, path and node) writes an item that must exist: a
 * PUT or POST at a path ending in its one parameter whose responses name a 404.
 *
 * @example
 * ```ts
 * import { updatesExisting } from "./updates_existing.ts";
 * const op = (method: string, template: string, responses: object) => ({ method, template, node: { responses } });
 * if (!updatesExisting(op("PUT", "/users/{id}", { 200: {}, 404: {} }))) throw new Error();
 * if (updatesExisting(op("PUT", "/files/{id}", { 200: {} })) || updatesExisting(op("POST", "/cart", { 404: {} }))) {
 *   throw new Error();
 * }
 * if (updatesExisting(op("PUT", "/repos/{repo}/contents/{path}", { 404: {} }))) {
 *   throw new Error();
 * }
 * ```
 */
export function updatesExisting(op: { method: string; template: string; node: Node }): boolean {
  if (op.method !== "PUT" && op.method !== "POST") return false;
  // Its one parameter the item's own: a 404 under a parent may be the parent's (GitHub's
  // `PUT /repos/{owner}/{repo}/contents/{path}` makes the file, 404 for a repository it lacks).
  if (!/\{[^}]*\}\/?$/.test(op.template) || (op.template.match(/\{/g) ?? []).length > 1) {
    return false;
  }
  return isNode(op.node.responses) && "404" in op.node.responses;
}

/**
 * Whether a POST makes an item with a path of its own: such a POST (a user's
 * create, with a password and a static `token`: Directus) signs nobody in.
 *
 * @module
 */
import { isNode, type Node } from "../../check/openapi_operations.ts";
import type { OpenApiOperation } from "./operations.ts";

/**
 * Whether a POST is sent to a collection whose items have paths of their own (`/users` beside
 * `/users/{id}`): it makes one (a user, with a password and a static `token`: Directus), and
 * signs nobody in.
 *
 * @example
 * ```ts
 * import { makesItem } from "./makes_item.ts";
 * const doc = { paths: { "/users": {}, "/users/{id}": {} } };
 * if (!makesItem(doc, { template: "/users" }) || makesItem(doc, { template: "/login" })) throw new Error();
 * ```
 */
export function makesItem(doc: Node, op: Pick<OpenApiOperation, "template">): boolean {
  const base = `${op.template.replace(/\/$/, "")}/`;
  return Object.keys(isNode(doc.paths) ? doc.paths : {}).some((t) =>
    t.startsWith(base) && /^\{[^}/]+\}\/?$/.test(t.slice(base.length))
  );
}

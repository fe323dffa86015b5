/**
 * The body of a create under an item that names another collection but
 * documents its parent's own body. drf-spectacular describes a viewset's
 * extra action with the viewset's serializer unless the code says
 * otherwise: a Django REST framework issue tracker documented
 * `POST /api/v1/issues/{id}/comments/` as taking an `Issue`, the very
 * schema `POST /api/v1/issues/` takes; it was sent a title and a project
 * and answered 400 (a comment's `body` is required). A create of another
 * noun taking exactly its parent's description is the generator's default,
 * not a description. When the action's last segment names a collection
 * beside its parent (`/api/v1/comments/`) whose create takes a schema of its
 * own, that create's body is the document's description of the noun, and it
 * is sent. The evidence is the document's: the same schema as the parent's
 * create, and a sibling collection of that word with a different one; an
 * action naming no collection (`publish`) keeps what it documents.
 *
 * @module
 */
import { isNode, type Node } from "../../check/openapi_operations.ts";
import type { OpenApiOperation } from "./operations.ts";

/** The JSON schema of a request body (its first JSON media type), as text to compare. */
function schemaText(body: unknown): string | undefined {
  if (!isNode(body) || !isNode(body.content)) return undefined;
  const media = Object.entries(body.content).find(([type]) => /\bjson\b/i.test(type))?.[1];
  return isNode(media) && media.schema !== undefined ? JSON.stringify(media.schema) : undefined;
}

/** The POST of a collection template, written with or without its closing slash. */
function createAt(paths: Node, template: string): Node | undefined {
  for (const t of [template, `${template}/`]) {
    const item = paths[t];
    if (isNode(item) && isNode(item.post)) return item.post;
  }
  return undefined;
}

/**
 * The request body of the sibling collection's create that `op` (a POST
 * under an item, documented with its parent's create body) stands for, or
 * undefined (see the module).
 *
 * @example
 * ```ts
 * import { parentBody } from "./parent_body.ts";
 * const body = (name: string) => ({ content: { "application/json": { schema: { $ref: name } } } });
 * const doc = { paths: {
 *   "/issues/": { post: { requestBody: body("Issue") } },
 *   "/issues/{id}/comments/": { post: { requestBody: body("Issue") } },
 *   "/comments/": { post: { requestBody: body("Comment") } },
 * } };
 * const op = { method: "POST", template: "/issues/{id}/comments/", node: doc.paths["/issues/{id}/comments/"].post };
 * if (parentBody(doc, op as never) !== doc.paths["/comments/"].post.requestBody) throw new Error();
 * const other = { ...op, template: "/issues/{id}/publish/" };
 * if (parentBody(doc, other as never) !== undefined) throw new Error();
 * ```
 */
export function parentBody(doc: unknown, op: OpenApiOperation): unknown {
  const at = /^(.*)\/([^/{}]+)\/\{[^}/]+\}\/([^/{}]+)\/?$/.exec(op.template);
  const paths = isNode(doc) && isNode(doc.paths) ? doc.paths : undefined;
  if (op.method !== "POST" || !at || !paths) return undefined;
  const [, prefix, parent, word] = at;
  if (word === parent) return undefined;
  const own = schemaText(op.node.requestBody);
  const parentCreate = createAt(paths, `${prefix}/${parent}`);
  if (own === undefined || own !== schemaText(parentCreate?.requestBody)) return undefined;
  const sibling = createAt(paths, `${prefix}/${word}`);
  const theirs = schemaText(sibling?.requestBody);
  return theirs !== undefined && theirs !== own ? sibling?.requestBody : undefined;
}

/**
 * `doc` with each create under an item that stands for a sibling
 * collection's create given that create's body ({@linkcode parentBody}), so
 * its body, and the links read from it, are that noun's; `doc` itself when
 * there is none.
 *
 * @example
 * ```ts
 * import { withParentBodies } from "./parent_body.ts";
 * const body = (name: string) => ({ content: { "application/json": { schema: { $ref: name } } } });
 * const doc = { paths: {
 *   "/issues": { post: { requestBody: body("Issue") } },
 *   "/issues/{id}/comments": { post: { requestBody: body("Issue") } },
 *   "/comments": { post: { requestBody: body("Comment") } },
 * } };
 * const got = withParentBodies(doc) as typeof doc;
 * if (got.paths["/issues/{id}/comments"].post.requestBody !== doc.paths["/comments"].post.requestBody) throw new Error();
 * if (doc.paths["/issues/{id}/comments"].post.requestBody.content["application/json"].schema.$ref !== "Issue") throw new Error();
 * if (withParentBodies({ paths: {} }).paths === undefined) throw new Error();
 * ```
 */
export function withParentBodies(doc: Node): Node {
  if (!isNode(doc.paths)) return doc;
  let changed = false;
  const paths: Node = {};
  for (const [template, item] of Object.entries(doc.paths)) {
    paths[template] = item;
    if (!isNode(item) || !isNode(item.post)) continue;
    const body = parentBody(doc, { method: "POST", template, node: item.post } as OpenApiOperation);
    if (body === undefined) continue;
    paths[template] = { ...item, post: { ...item.post, requestBody: body } };
    changed = true;
  }
  return changed ? { ...doc, paths } : doc;
}

/**
 * The operations of a bundled document as the converter uses them: their
 * parameters (the path item's and the operation's, the operation's winning
 * by name and place), their tag (the first), a step name (from the
 * `operationId`, else the method and path), whether it creates, and the
 * order of steps within a flow: creating first, parents before children,
 * then reads, then updates and other actions, then deletes, children
 * before parents, and last the actions on the whole API; document order
 * otherwise.
 *
 * What creates is decided by the document's paths, not by words: a POST to
 * a collection the document also lists, deletes from or has items under
 * (`POST /pets` beside `GET /pets` or `/pets/{id}`); and the PUT of an item
 * nothing else creates (no POST on its collection: WireMock's `PUT
 * /__admin/files/{fileId}`), as HTTP creates at a URL the client names, or
 * its POST where the item is also read or deleted (Unleash's `POST
 * /metrics/applications/{appName}`). A
 * POST to a path with no parameter that is no create (WireMock's `POST
 * /__admin/mappings/reset`, `/import`, `/requests/find`) acts on the whole
 * API: run first, a reset removed what the create had made before the
 * steps that read, update and delete it ran (404 for all three). In an
 * RPC-shaped document (no path parameter, functions named `createGroup`,
 * each served by GET and POST) the function's name decides instead:
 * `create…` creates, `delete…` deletes (`rpc_verbs.ts`). A POST to a create
 * verb after a noun other paths use (`/bookmark/create` beside
 * `/bookmark/{id}`) creates that noun's items (`verb_segments.ts`). A
 * tag's one POST answering 201 beside its item paths, where no path names
 * a collection (`POST /addOrder` beside `PUT /updateOrder/{id}`), creates
 * the tag's items (`tag_create.ts`).
 *
 * @module
 */
import { isNode, type Node, OPENAPI_METHODS } from "../../check/openapi_operations.ts";
import { snake } from "../names.ts";
import { deref } from "./examples.ts";
import { itemDeleteDepth, listedItems } from "./listed_items.ts";
import { isRpcDocument, rpcVerb } from "./rpc_verbs.ts";
import { borrowSiblingQuery } from "./sibling_query.ts";
import { writesReadBack } from "./writes_read.ts";
import { updatesExisting } from "./updates_existing.ts";
import { madeCollection, verbItem } from "./verb_segments.ts";
import { actionCollection } from "./action_segments.ts";
import { markTagCreates } from "./tag_create.ts";
import { fixedSegments } from "./fixed_segment.ts";
import type { OpenApiOperation } from "./operation.ts";

export type { OpenApiOperation } from "./operation.ts";

/**
 * Every operation of a document, in document order.
 *
 * @example
 * ```ts
 * import { operationsOf } from "./operations.ts";
 * const doc = { paths: { "/pets/{id}": { parameters: [{ name: "id", in: "path" }],
 *   get: { operationId: "showPet", tags: ["pets"] }, delete: {} } } };
 * const ops = operationsOf(doc);
 * if (ops[0].name !== "show_pet" || ops[0].tag !== "pets" || ops[0].params.length !== 1) throw new Error();
 * if (ops[1].name !== "delete_pets_id" || ops[1].tag !== undefined) throw new Error();
 * ```
 */
export function operationsOf(doc: Node): OpenApiOperation[] {
  const paths = isNode(doc.paths) ? doc.paths : {};
  const found: OpenApiOperation[] = [];
  const spelled = tagSpelling(doc);
  for (const template of Object.keys(paths)) {
    const item = paths[template];
    if (!isNode(item)) continue;
    for (const method of OPENAPI_METHODS) {
      const node = item[method];
      if (!isNode(node) || !Object.hasOwn(item, method)) continue;
      const tag = Array.isArray(node.tags) && typeof node.tags[0] === "string"
        ? spelled(node.tags[0])
        : undefined;
      const id = typeof node.operationId === "string" ? snake(node.operationId) : "";
      const merged = mergedParams(doc, item.parameters, node.parameters);
      // A parameter allowed one value is its segment (fixed_segment.ts); the name keeps the path's.
      const fixed = fixedSegments(doc, template, merged);
      found.push({
        method: method.toUpperCase(),
        template: fixed.template,
        ...(fixed.template === template ? {} : { path: template }),
        node,
        params: fixed.params,
        tag,
        name: id || snake(`${method} ${template}`) || method,
        index: found.length,
      });
    }
  }
  borrowSiblingQuery(found);
  const uses = pathsOf(found);
  for (const op of found) classify(doc, op, uses);
  markTagCreates(doc, found);
  return found;
}

/**
 * A tag as the document first spells it, letter case aside: the `tags`
 * list, then the operations in order. RealWorld's 3.0 document tags the
 * follow `Profile` and the unfollow `profile`; as two flows, the unfollow
 * ran where nothing was followed (404), and each flow signed up anew.
 */
function tagSpelling(doc: Node): (tag: string) => string {
  const first = new Map<string, string>();
  const declared = Array.isArray(doc.tags) ? doc.tags : [];
  for (const t of declared) {
    const name = isNode(t) ? t.name : undefined;
    if (typeof name === "string" && !first.has(name.toLowerCase())) {
      first.set(name.toLowerCase(), name);
    }
  }
  return (tag) => {
    const key = tag.toLowerCase();
    if (!first.has(key)) first.set(key, tag);
    return first.get(key)!;
  };
}

/** Sets what an operation does (`role`) and, when it lists items, where it runs among the deletes. */
function classify(doc: Node, op: OpenApiOperation, uses: ReturnType<typeof pathsOf>): void {
  // A write sending back what its path's read answered runs after that read: no create; nor one
  // answering 404 for an item it cannot find (updates_existing.ts).
  const existing = writesReadBack(op, doc.paths) || updatesExisting(op);
  const byPaths = existing ? undefined : roleOf(op, uses);
  // An RPC function's POST is no evidence of a create (each has one): its name is.
  const role = uses.rpc
    ? rpcVerb(op.template, op.node.operationId) ?? (byPaths === "create" ? undefined : byPaths)
    : byPaths;
  if (role) op.role = role;
  const path = uses.trim(op.template);
  if (role === "create" && madeCollection(path) && isOwnCollection(path, uses)) op.ownPath = true;
  // A bulk operation may remove what it lists: after the reads and updates of its items.
  const lists = role === "create" || op.method === "GET" ? undefined : listDepth(doc, op);
  if (lists !== undefined) op.lists = lists;
}

/** The depth a step listing items runs at among the deletes (see `OpenApiOperation.lists`). */
function listDepth(doc: Node, op: OpenApiOperation): number | undefined {
  const lists = listedItems(doc, op.node);
  if (lists.length === 0) return undefined;
  const depths = lists.map(([, noun]) => itemDeleteDepth(doc, noun) ?? 0);
  // Half a level deeper: after the deletes under the items, before the items' own; a delete of
  // many of items that have their own delete (many_delete.ts) after an update of many of them.
  const deepest = Math.max(...depths, 0);
  return deepest + (op.method === "DELETE" && deepest > 0 ? 0.25 : 0.5);
}

function mergedParams(doc: Node, shared: unknown, own: unknown): Node[] {
  const byKey = new Map<string, Node>();
  for (const list of [shared, own]) {
    for (const raw of Array.isArray(list) ? list : []) {
      const p = deref(doc, raw);
      if (isNode(p) && typeof p.name === "string" && typeof p.in === "string") {
        byKey.set(`${p.in} ${p.name}`, p);
      }
    }
  }
  return [...byKey.values()];
}

/** The document's paths (no trailing slash) by how they are used: their operations, what has items under it, what has a POST. */
function pathsOf(ops: OpenApiOperation[]) {
  const trim = (template: string) => template.replace(/\/$/, "");
  const count = new Map<string, number>();
  const parents = new Set<string>();
  const posted = new Set<string>();
  for (const op of ops) {
    const path = trim(op.template);
    count.set(path, (count.get(path) ?? 0) + 1);
    if (op.method === "POST") posted.add(path);
    for (const m of path.matchAll(/\/\{/g)) parents.add(path.slice(0, m.index));
    // `/post/delete/{id}` is an item of `/post` (verb_segments.ts).
    const verbed = verbItem(path)?.collection;
    if (verbed) parents.add(verbed);
  }
  const rpc = isRpcDocument(ops.map((op) => op.template));
  // `PUT /orders/cancel/{id}` acts on an item of `/orders`, when its create is there (action_segments.ts).
  const templates = ops.map((op) => op.template);
  const acted = (path: string) => {
    const collection = actionCollection(path, templates);
    return collection !== undefined && posted.has(collection);
  };
  return { trim, count, parents, posted, rpc, acted };
}

/** Whether an operation creates, acts on the whole API, or neither (see the module's doc). */
function roleOf(op: OpenApiOperation, uses: ReturnType<typeof pathsOf>): OpenApiOperation["role"] {
  const path = uses.trim(op.template);
  // Under an update or read verb, whatever its method, the item exists: its create is the noun's.
  const verbed = verbItem(path)?.verb;
  if (verbed) return verbed === "delete" ? "delete" : undefined;
  if (uses.acted(path)) return undefined;
  if (op.method === "POST" && isCollection(op.template)) return postedRole(path, uses);
  if (isCollection(op.template)) return undefined;
  // The PUT of an item nothing else creates; a POST too where the item is also read or deleted
  // (Unleash's `POST /metrics/applications/{appName}`), not one alone on its path (an action).
  if (op.method !== "PUT" && (op.method !== "POST" || (uses.count.get(path) ?? 0) < 2)) {
    return undefined;
  }
  return uses.posted.has(path.slice(0, path.lastIndexOf("/"))) ? undefined : "create";
}

/** Whether an operation's path is used as a collection: other operations on it, or items under it. */
function isOwnCollection(path: string, uses: ReturnType<typeof pathsOf>): boolean {
  return (uses.count.get(path) ?? 0) > 1 || uses.parents.has(path);
}

/** What a POST to a collection's path does: creates, or acts on the whole API when no parameter. */
function postedRole(path: string, uses: ReturnType<typeof pathsOf>): OpenApiOperation["role"] {
  if (isOwnCollection(path, uses)) return "create";
  // `POST /bookmark/create` beside `/bookmark/{id}`, `GET /bookmark` or `/bookmark/list`
  // (verb_segments.ts); not `/auth/register` beside `/auth/login` (no collection of `/auth`).
  const made = madeCollection(path);
  const listed = (p: string) => p === made || p === `${made}/list` || p === `${made}/all`;
  if (made && (uses.parents.has(made) || [...uses.count.keys()].some(listed))) return "create";
  return path.includes("{") ? undefined : "whole";
}

/**
 * Whether an operation acts on the whole API rather than on what a step
 * made: a POST that is no create on a path of no parameter (a reset, an
 * import, a search), or a DELETE of a path of no parameter (delete all).
 * A flow holding one runs alone (`serial`), or it may clear what a flow
 * running beside it has just created.
 *
 * @example
 * ```ts
 * import { actsOnWholeApi, operationsOf } from "./operations.ts";
 * const ops = operationsOf({ paths: {
 *   "/mappings": { post: {}, delete: {} }, "/mappings/reset": { post: {} }, "/mappings/{id}": { delete: {} },
 * } });
 * if (ops.map(actsOnWholeApi).join() !== "false,true,true,false") throw new Error();
 * ```
 */
export function actsOnWholeApi(op: OpenApiOperation): boolean {
  return op.role === "whole" || (op.method === "DELETE" && !op.template.includes("{"));
}

/**
 * Whether a parameter names an item the client names at its create (a PUT,
 * or a POST, at the item's own path: see the module), so the run chooses it.
 *
 * @example
 * ```ts
 * import { clientNames, operationsOf } from "./operations.ts";
 * const ops = operationsOf({ paths: { "/apps/{app}": { post: {}, get: {} }, "/apps/{app}/logs/{log}": { get: {} } } });
 * if (!clientNames(ops, ops[2], "app") || clientNames(ops, ops[2], "log")) throw new Error();
 * ```
 */
export function clientNames(
  ops: Iterable<OpenApiOperation>,
  op: OpenApiOperation,
  param: string,
): boolean {
  const at = op.template.indexOf(`{${param}}`);
  if (at < 0) return false;
  const item = op.template.slice(0, at + param.length + 2);
  for (const o of ops) {
    if (
      o.role === "create" && !isCollection(o.template) && o.template.replace(/\/$/, "") === item
    ) {
      return true;
    }
  }
  return false;
}

/**
 * Whether a path names a collection (its last segment is no parameter).
 *
 * @example
 * ```ts
 * import { isCollection } from "./operations.ts";
 * if (!isCollection("/pets") || isCollection("/pets/{id}")) throw new Error();
 * ```
 */
export function isCollection(template: string): boolean {
  return !/\{[^}]*\}\/?$/.test(template);
}

/**
 * The rank of an operation in a flow: create, read, update or act, delete
 * or act on listed items, act on the whole API.
 */
function rank(op: OpenApiOperation): number {
  if (op.role === "create") return 0;
  // An RPC function named a delete, whichever its method (Etherpad's `GET /deleteGroup`); a POST
  // one after the POST functions, which read as well as act (etcd's `role/get` before `role/delete`).
  if (op.role === "delete") return op.method === "POST" ? 5 : 3;
  if (op.method === "GET" || op.method === "HEAD" || op.method === "OPTIONS") return 1;
  if (op.method === "DELETE" || op.lists !== undefined) return 3;
  return op.role === "whole" ? 4 : 2;
}

/**
 * Operations in the order their steps run.
 *
 * @example
 * ```ts
 * import { operationsOf, stepOrder } from "./operations.ts";
 * const doc = { paths: {
 *   "/pets/{id}": { delete: {}, get: {} },
 *   "/pets/{id}/toys": { post: {}, delete: {} },
 *   "/pets": { get: {}, post: {} },
 *   "/pets/reset": { post: {} },
 * } };
 * const order = stepOrder(operationsOf(doc)).map((o) => `${o.method} ${o.template}`);
 * if (order.join(", ") !== "POST /pets, POST /pets/{id}/toys, GET /pets/{id}, GET /pets, " +
 *   "DELETE /pets/{id}/toys, DELETE /pets/{id}, POST /pets/reset") throw new Error(order.join(", "));
 * ```
 */
export function stepOrder(ops: OpenApiOperation[]): OpenApiOperation[] {
  const depth = (op: OpenApiOperation) => op.lists ?? op.template.split("/").length;
  return [...ops].sort((a, b) => {
    const byRank = rank(a) - rank(b);
    if (byRank !== 0) return byRank;
    if (rank(a) === 0) return depth(a) - depth(b) || a.index - b.index;
    if (rank(a) === 3) return depth(b) - depth(a) || a.index - b.index;
    // Named deletes undo in reverse (`user/revoke` before `user/delete`, then `role/delete`).
    if (rank(a) === 5) return b.index - a.index;
    return a.index - b.index;
  });
}

/**
 * The operations of a bundled document as the converter uses them: their
 * parameters (the path item's and the operation's, the operation's winning
 * by name and place), their tag (the first), a step name (from the
 * `operationId`, else the method and path) and the order of steps within a
 * flow: creating (a POST to a collection) first, parents before children,
 * then reads, then updates and other actions, deletes last, children
 * before parents; document order otherwise.
 *
 * @module
 */
import { isNode, type Node, OPENAPI_METHODS } from "../../check/openapi_operations.ts";
import { snake } from "../names.ts";
import { deref } from "./examples.ts";

/** One operation of the document. */
export interface OpenApiOperation {
  /** Upper case. */
  method: string;
  template: string;
  node: Node;
  /** Every parameter, `$ref`s followed. */
  params: Node[];
  /** The first tag, or undefined. */
  tag?: string;
  /** A name for its step before uniqueness: `list_pets`, `get_pets_pet_id`. */
  name: string;
  /** Its place in the document. */
  index: number;
}

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
  for (const template of Object.keys(paths)) {
    const item = paths[template];
    if (!isNode(item)) continue;
    for (const method of OPENAPI_METHODS) {
      const node = item[method];
      if (!isNode(node) || !Object.hasOwn(item, method)) continue;
      const tag = Array.isArray(node.tags) && typeof node.tags[0] === "string"
        ? node.tags[0]
        : undefined;
      const id = typeof node.operationId === "string" ? snake(node.operationId) : "";
      found.push({
        method: method.toUpperCase(),
        template,
        node,
        params: mergedParams(doc, item.parameters, node.parameters),
        tag,
        name: id || snake(`${method} ${template}`) || method,
        index: found.length,
      });
    }
  }
  return found;
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

/** The rank of an operation in a flow: create, read, update or act, delete. */
function rank(op: OpenApiOperation): number {
  if (op.method === "POST" && isCollection(op.template)) return 0;
  if (op.method === "GET" || op.method === "HEAD" || op.method === "OPTIONS") return 1;
  if (op.method === "DELETE") return 3;
  return 2;
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
 * } };
 * const order = stepOrder(operationsOf(doc)).map((o) => `${o.method} ${o.template}`);
 * if (order.join(", ") !== "POST /pets, POST /pets/{id}/toys, GET /pets/{id}, GET /pets, " +
 *   "DELETE /pets/{id}/toys, DELETE /pets/{id}") throw new Error(order.join(", "));
 * ```
 */
export function stepOrder(ops: OpenApiOperation[]): OpenApiOperation[] {
  const depth = (op: OpenApiOperation) => op.template.split("/").length;
  return [...ops].sort((a, b) => {
    const byRank = rank(a) - rank(b);
    if (byRank !== 0) return byRank;
    if (rank(a) === 0) return depth(a) - depth(b) || a.index - b.index;
    if (rank(a) === 3) return depth(b) - depth(a) || a.index - b.index;
    return a.index - b.index;
  });
}

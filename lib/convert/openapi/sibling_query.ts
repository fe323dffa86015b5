/**
 * The query an operation's same-worded sibling requires, for an operation
 * that declares no parameter and no body of its own. httpbin's
 * `/redirect-to` is one handler for every method, and its document gives
 * each the same summary ("302/3XX Redirects to the given URL."), but only
 * the GET names the `url` it requires: DELETE and PATCH name nothing, and
 * without `url` the server answers 500. The same path and the same words
 * are one request's description, the GET's required query its "given URL":
 * the operation sends it too. An operation with parameters or a body of its
 * own says what it takes; one whose words differ is another request.
 *
 * @module
 */
import type { Node } from "../../check/openapi_operations.ts";

/** What this needs of an operation: where it is, its node, its parameters. */
interface Op {
  method: string;
  template: string;
  node: Node;
  params: Node[];
}

/** The summary (else description) an operation is described by, if any. */
function wordsOf(node: Node): string | undefined {
  const words = typeof node.summary === "string" && node.summary.trim() !== ""
    ? node.summary
    : node.description;
  return typeof words === "string" && words.trim() !== "" ? words.trim() : undefined;
}

/** Whether an operation declares nothing to send: no parameter of its own, no body. */
function takesNothing(op: Op): boolean {
  const own = Array.isArray(op.node.parameters) ? op.node.parameters.length : 0;
  return own === 0 && op.node.requestBody === undefined && !op.params.some((p) => p.in !== "path");
}

/**
 * Adds to each operation that takes nothing the required query parameters
 * of another method at its path with the same words (the first such).
 *
 * @example
 * ```ts
 * import { borrowSiblingQuery } from "./sibling_query.ts";
 * const url = { in: "query", name: "url", required: true };
 * const get = { method: "GET", template: "/to", node: { summary: "Redirects." }, params: [url] };
 * const del = { method: "DELETE", template: "/to", node: { summary: "Redirects." }, params: [] };
 * const other = { method: "PATCH", template: "/to", node: { summary: "Renames." }, params: [] };
 * borrowSiblingQuery([get, del, other]);
 * if (del.params[0] !== url || other.params.length !== 0) throw new Error();
 * ```
 */
export function borrowSiblingQuery(ops: Op[]): void {
  const needing = ops.filter((op) => wordsOf(op.node) !== undefined && takesNothing(op));
  for (const op of needing) {
    const words = wordsOf(op.node);
    const sibling = ops.find((o) =>
      o !== op && o.template === op.template && wordsOf(o.node) === words &&
      o.params.some((p) => p.in === "query" && p.required === true)
    );
    if (!sibling) continue;
    op.params.push(...sibling.params.filter((p) => p.in === "query" && p.required === true));
  }
}

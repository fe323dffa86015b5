/**
 * Applying a compiled json-p3 query to a document without recursion: on the
 * calling thread, and (as source text) on the helper thread for filters.
 * Private helper of `expr/`: the functions must stay self-contained, since
 * `path_filter.ts` sends their text to the helper thread.
 *
 * @module
 */
// @ts-types="npm:json-p3@2.3.1"
import type { JSONPathNode, JSONPathQuery } from "json-p3";

/**
 * `JSONPathQuery.query` walks `..` recursively (a limit of 50 levels, and a
 * cost of the square of the depth beyond it) and spreads each selector's
 * matches into an argument list (which overflows past about 100,000 matches),
 * so the segments are applied here instead: children one by one, descendants
 * with an explicit stack, in the document order RFC 9535 asks for.
 *
 * @example
 * ```ts
 * import { evaluate } from "./_path_walk.ts";
 * import { pathEngine } from "./path_engine.ts";
 * const p3 = await pathEngine.load();
 * const query = new p3.JSONPathEnvironment().compile("$..id");
 * const ids = evaluate(query, { a: { id: 1 }, b: [{ id: 2 }] }, p3.JSONPathNode);
 * if (JSON.stringify(ids) !== "[1,2]") throw new Error(JSON.stringify(ids));
 * ```
 */
export function evaluate(
  query: JSONPathQuery,
  document: unknown,
  Node: typeof JSONPathNode,
): unknown[] {
  let nodes = [new Node(document as never, [], document as never)];
  for (const segment of query.segments) {
    const next: JSONPathNode[] = [];
    const apply = (node: JSONPathNode) => {
      for (const selector of segment.selectors) {
        for (const match of selector.resolve(node)) next.push(match);
      }
    };
    if (segment.constructor.name === "DescendantSegment") {
      for (const node of nodes) descend(node, apply, Node);
    } else {
      for (const node of nodes) apply(node);
    }
    nodes = next;
  }
  return nodes.map((node) => node.value);
}

/**
 * Visits `start` and every node below it, parents before children. Locations
 * stay empty: only values are read, and copying a location per level would
 * cost the square of the depth.
 *
 * @example
 * ```ts
 * import { descend } from "./_path_walk.ts";
 * import { pathEngine } from "./path_engine.ts";
 * const { JSONPathNode } = await pathEngine.load();
 * const seen: unknown[] = [];
 * descend(new JSONPathNode([1, [2]], [], [1, [2]]), (node) => seen.push(node.value), JSONPathNode);
 * if (JSON.stringify(seen) !== "[[1,[2]],1,[2],2]") throw new Error(JSON.stringify(seen));
 * ```
 */
export function descend(
  start: JSONPathNode,
  visit: (node: JSONPathNode) => void,
  Node: typeof JSONPathNode,
): void {
  const stack: unknown[] = [start.value];
  while (stack.length > 0) {
    const value = stack.pop();
    visit(new Node(value as never, [], start.root));
    if (value === null || typeof value !== "object") continue;
    const children = Array.isArray(value) ? value : Object.values(value);
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]);
  }
}

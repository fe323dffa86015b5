/**
 * One walk of a document's objects, bottom up, rewriting each by a rule of its own and sharing
 * the parts the rule leaves unchanged: the shape of the passes that read a producer's own keys
 * or examples as what they mean (`joi_rules.ts`, `exampled_shape.ts`).
 *
 * @module
 */
import { isNode, type Node } from "../../check/openapi_operations.ts";

/** How deep the walk goes; a document's schemas nest far less. */
const MAX_DEPTH = 64;

function walk(node: unknown, depth: number, rule: (n: Node) => Node): unknown {
  if (depth > MAX_DEPTH) return node;
  if (Array.isArray(node)) {
    const items = node.map((item) => walk(item, depth + 1, rule));
    return items.some((item, i) => item !== node[i]) ? items : node;
  }
  if (!isNode(node)) return node;
  let changed = false;
  const out: Node = {};
  for (const [key, value] of Object.entries(node)) {
    out[key] = walk(value, depth + 1, rule);
    if (out[key] !== value) changed = true;
  }
  const own = rule(out);
  return changed || own !== out ? own : node;
}

/**
 * `doc` with every object in it rewritten by `rule` (its members first), which returns the
 * object it is given when it changes nothing; `doc` itself when nothing changed.
 *
 * @example
 * ```ts
 * import { rewriteNodes } from "./node_rewrite.ts";
 * const doc = { a: { b: { flag: true } }, c: [{ flag: false }] };
 * const out = rewriteNodes(doc, (n) => n.flag === true ? { ...n, seen: 1 } : n);
 * if ((out.a.b as Record<string, unknown>).seen !== 1 || out.c !== doc.c) throw new Error();
 * if (rewriteNodes(doc, (n) => n) !== doc) throw new Error();
 * ```
 */
export function rewriteNodes<T>(doc: T, rule: (n: Node) => Node): T {
  return walk(doc, 0, rule) as T;
}

/**
 * Limits a flow file must stay within before it is read: how deep its YAML
 * nests, and how far its aliases expand. Each is checked in time linear in
 * the document, without recursion, and gives one problem with its own code,
 * whatever was loaded before (a stack overflow deep in a parser depends on
 * what else is on the stack; these checks do not).
 *
 * @module
 */
import { type Document, isAlias, isMap, isPair, isScalar, isSeq, type Node } from "yaml";

/** Deepest nesting of flow collections (`[`/`{`) accepted: far past any real flow. */
export const MAX_DEPTH = 256;

/**
 * Nodes that aliases may add to a document (each use of an alias counts its
 * whole target): enough for generous anchors, far below a "billion laughs".
 *
 * @example
 * ```ts
 * import { MAX_ALIAS_EXPANSION } from "./yaml_limits.ts";
 * if (MAX_ALIAS_EXPANSION !== 100_000) throw new Error();
 * ```
 */
export const MAX_ALIAS_EXPANSION = 100_000;

/**
 * Every anchor of a document by name, the last definition winning (a later
 * `&a` redefines it), found in one pass: resolving each alias by searching
 * the document made a 130 KB flow take half a minute.
 *
 * @example
 * ```ts
 * import { parseDocument } from "yaml";
 * import { anchorsOf } from "./yaml_limits.ts";
 * const anchors = anchorsOf(parseDocument("a: &x 1\nb: *x\n"));
 * if (!anchors.has("x")) throw new Error();
 * ```
 */
export function anchorsOf(doc: Document): Map<string, Node> {
  const anchors = new Map<string, Node>();
  const contents = doc.contents as Node | null;
  const stack: Node[] = contents ? [contents] : [];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.anchor) anchors.set(node.anchor, node);
    for (const child of childrenOf(node, new Map()) ?? []) if (!isAlias(node)) stack.push(child);
  }
  return anchors;
}

/**
 * The offset where flow collections (`[`, `{`) first nest deeper than
 * `MAX_DEPTH`, outside quoted strings and comments, or where a list item or
 * key is indented past four spaces per level of that depth; undefined when
 * neither happens.
 *
 * @example
 * ```ts
 * import { tooDeepAt } from "./yaml_limits.ts";
 * if (tooDeepAt("a: [[1], {b: '[[[['}]") !== undefined) throw new Error();
 * if (tooDeepAt("a: " + "[".repeat(300)) !== 3 + 256) throw new Error();
 * ```
 */
export function tooDeepAt(text: string, max = MAX_DEPTH): number | undefined {
  // Block nesting shows as indentation: a list item or key indented past four spaces a level.
  const indented = new RegExp(`^ {${4 * max},}(- |[^\\s#:]+:)`, "m").exec(text);
  const limit = indented?.index;
  let depth = 0;
  let quote = "";
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      if (c === "\\" && quote === '"') i++;
      else if (c === quote) quote = "";
      continue;
    }
    if ((c === '"' || c === "'") && /[\s[{,:]/.test(text[i - 1] ?? " ")) quote = c;
    else if (c === "#" && /\s/.test(text[i - 1] ?? " ")) {
      const end = text.indexOf("\n", i);
      i = end === -1 ? text.length : end;
    } else if (c === "[" || c === "{") {
      if (++depth > max) return limit !== undefined && limit < i ? limit : i;
    } else if ((c === "]" || c === "}") && depth > 0) depth--;
  }
  return limit;
}

/**
 * How many nodes a document's aliases add when expanded, counted with one
 * pass over the document and a memo per anchor (so alias-heavy documents cost
 * linear time): `Infinity` for an alias that refers to itself.
 *
 * @example
 * ```ts
 * import { parseDocument } from "yaml";
 * import { aliasExpansion } from "./yaml_limits.ts";
 * const doc = parseDocument("a: &x [1, 2, 3]\nb: *x\nc: *x\n");
 * if (aliasExpansion(doc) !== 8) throw new Error(String(aliasExpansion(doc)));
 * ```
 */
export function aliasExpansion(doc: Document): number {
  const anchors = new Map<string, Node>();
  const sizes = new Map<Node, number>();
  // Post-order without recursion: a node's size is known once its children's are.
  const sizeOf = (root: Node): number => {
    const stack: [Node, boolean][] = [[root, false]];
    const open = new Set<Node>();
    while (stack.length > 0) {
      const [node, done] = stack.pop()!;
      if (sizes.has(node)) continue;
      const children = childrenOf(node, anchors);
      if (children === undefined) return Infinity;
      if (!done) {
        if (open.has(node)) return Infinity;
        open.add(node);
        stack.push([node, true]);
        for (const child of children) if (!sizes.has(child)) stack.push([child, false]);
        continue;
      }
      open.delete(node);
      let size = 1;
      for (const child of children) size += sizes.get(child) ?? 0;
      sizes.set(node, Math.min(size, Number.MAX_SAFE_INTEGER));
      if (node.anchor) anchors.set(node.anchor, node);
    }
    return sizes.get(root)!;
  };
  // Anchors are registered in document order, as YAML defines them before use.
  const contents = doc.contents as Node | null;
  if (!contents) return 0;
  let plain = 0;
  const stack: Node[] = [contents];
  while (stack.length > 0) {
    const node = stack.pop()!;
    plain++;
    if (node.anchor) anchors.set(node.anchor, node);
    if (isMap(node)) {
      for (const pair of node.items) {
        if (isPair(pair)) {
          for (const part of [pair.value, pair.key]) if (isNode(part)) stack.push(part);
        }
      }
    } else if (isSeq(node)) {
      for (let i = node.items.length - 1; i >= 0; i--) {
        const item = node.items[i];
        if (isNode(item)) stack.push(item);
      }
    }
  }
  const expanded = sizeOf(contents);
  return expanded === Infinity ? Infinity : Math.max(0, expanded - plain);
}

const isNode = (v: unknown): v is Node => isScalar(v) || isMap(v) || isSeq(v) || isAlias(v);

/** A node's children, an alias's target as its one child; undefined for an unknown alias. */
function childrenOf(node: Node, anchors: Map<string, Node>): Node[] | undefined {
  if (isAlias(node)) {
    const target = anchors.get(node.source);
    return target ? [target] : [];
  }
  const out: Node[] = [];
  if (isMap(node)) {
    for (const pair of node.items) {
      if (!isPair(pair)) continue;
      if (isNode(pair.key)) out.push(pair.key);
      if (isNode(pair.value)) out.push(pair.value);
    }
  } else if (isSeq(node)) { for (const item of node.items) if (isNode(item)) out.push(item); }
  return out;
}

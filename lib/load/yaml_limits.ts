/**
 * The bounds of a flow file's YAML, checked without recursion so the answer
 * is the same whatever else is on the stack: how deep its collections nest
 * (measured while the full parser builds its syntax tree) and how far its
 * aliases expand. The bounds themselves are in `../model/limits.ts`.
 *
 * @module
 */
import type { CST, Document, Node } from "yaml";
import { MAX_ALIAS_EXPANSION, MAX_DEPTH } from "../model/limits.ts";
import { isAlias, isMap, isPair, isScalar, isSeq } from "./nodes.ts";
import { yamlEngine } from "./yaml_engine.ts";

/**
 * Parses YAML text into its concrete syntax tree, stopping as soon as
 * collections nest deeper than `max`: the parser closes nested collections
 * recursively, so without a bound `a: a: a: …` on one megabyte line overflowed
 * the stack (or not, depending on what ran before). Returns the tokens, or
 * the offset of the first collection past the limit.
 *
 * @example
 * ```ts
 * import { parseBounded } from "./yaml_limits.ts";
 * import { yamlEngine } from "./yaml_engine.ts";
 * await yamlEngine.load();
 * const ok = parseBounded("a: [1, 2]\n");
 * if (!("tokens" in ok) || ok.tokens[0].type !== "document") throw new Error();
 * const deep = parseBounded("a: " + "a: ".repeat(100_000) + "1");
 * if (!("tooDeepAt" in deep)) throw new Error();
 * ```
 */
export function parseBounded(
  text: string,
  onNewLine?: (offset: number) => void,
  max = MAX_DEPTH,
): { tokens: CST.Token[] } | { tooDeepAt: number } {
  const { Lexer, Parser } = yamlEngine.get();
  const parser = new Parser(onNewLine);
  onNewLine?.(0);
  const tokens: CST.Token[] = [];
  // The parser's stack holds the document, each open collection and at most a few tokens
  // in progress: past this, the collections nest too deep.
  const bound = max + 8;
  for (const lexeme of new Lexer().lex(text)) {
    for (const token of parser.next(lexeme)) tokens.push(token);
    if (parser.stack.length > bound) {
      let depth = 0;
      for (const token of parser.stack) {
        if (
          (token.type === "block-map" || token.type === "block-seq" ||
            token.type === "flow-collection") && ++depth > max
        ) return { tooDeepAt: token.offset };
      }
      return { tooDeepAt: parser.offset };
    }
  }
  for (const token of parser.end()) tokens.push(token);
  return { tokens };
}

/**
 * The offset of the first YAML collection (block or flow list or map) that
 * nests deeper than `max`, measured on the parser's concrete syntax tree
 * without recursion; `undefined` when none does. Text inside quoted or block
 * scalars is text, not nesting.
 *
 * @example
 * ```ts
 * import { Parser } from "yaml";
 * import { tooDeepAt } from "./yaml_limits.ts";
 * const tokens = (text: string) => [...new Parser().parse(text)];
 * if (tooDeepAt(tokens("a: [[1], {b: '[[[['}]"), 256) !== undefined) throw new Error();
 * if (tooDeepAt(tokens("a: " + "[".repeat(300)), 256) !== 3 + 255) throw new Error();
 * if (tooDeepAt(tokens("- ".repeat(300) + "1"), 256) !== 2 * 256) throw new Error();
 * ```
 */
export function tooDeepAt(tokens: readonly CST.Token[], max = MAX_DEPTH): number | undefined {
  const stack: [CST.Token, number][] = [];
  for (let i = tokens.length - 1; i >= 0; i--) stack.push([tokens[i], 0]);
  while (stack.length > 0) {
    const [token, outer] = stack.pop()!;
    let depth = outer;
    let children: (CST.Token | null | undefined)[] = [];
    switch (token.type) {
      case "document":
        children = [token.value];
        break;
      case "block-map":
      case "block-seq":
      case "flow-collection":
        depth++;
        if (depth > max) return token.offset;
        children = (token.items as CST.CollectionItem[]).flatMap((item) => [item.key, item.value]);
        break;
    }
    for (let i = children.length - 1; i >= 0; i--) {
      const child = children[i];
      if (child) stack.push([child, depth]);
    }
  }
  return undefined;
}

/** What {@linkcode checkAliases} found wrong, at the alias where it happens. */
export interface AliasProblem {
  /** `too-large`: the expansion passes the limit; `cycle`: an alias within its own anchor; `too-deep`: nesting passes the limit once expanded. */
  kind: "too-large" | "cycle" | "too-deep";
  /** The alias node where the limit is passed. */
  alias: Node;
  /** Nodes added by the aliases up to and including this one (saturated). */
  added: number;
}

/** The aliases of a document and what each refers to. */
export interface AliasCheck {
  /** Each alias node's target: the nearest anchor of that name defined before it. */
  targets: Map<Node, Node>;
  /** The first limit passed, in document order, if any. */
  problem?: AliasProblem;
}

/**
 * Resolves every alias of a document to its anchor (the nearest definition
 * before it, as YAML says), and finds the first alias, in document order,
 * where expansion passes `maxAdded` nodes or `maxDepth` levels, or that
 * refers to the value it is part of. Sizes and depths are memoised per
 * anchor, so an alias-heavy document costs time linear in its size, and
 * only aliases count towards the expansion limit.
 *
 * @example
 * ```ts
 * import { parseDocument } from "yaml";
 * import { checkAliases } from "./yaml_limits.ts";
 * const ok = checkAliases(parseDocument("a: &x [1, 2, 3]\nb: *x\nc: *x\n"));
 * if (ok.problem || ok.targets.size !== 2) throw new Error();
 * const bomb = checkAliases(parseDocument("a: &x [1, 2, 3]\nb: [*x, *x]\n"), 7);
 * if (bomb.problem?.kind !== "too-large" || bomb.problem.added !== 8) throw new Error();
 * ```
 */
export function checkAliases(
  doc: Document,
  maxAdded = MAX_ALIAS_EXPANSION,
  maxDepth = MAX_DEPTH,
): AliasCheck {
  const root = doc.contents as Node | null;
  if (!root) return { targets: new Map() };
  const { targets, order } = resolveAliases(root);
  if (targets.size === 0) return { targets };
  const problem = firstOverLimit(order, targets, maxAdded, maxDepth);
  return problem ? { targets, problem } : { targets };
}

/** Size and depth of a value, its aliases expanded. */
interface Measure {
  size: number;
  depth: number;
}

/**
 * Pass 1, in document order: each alias's target (anchors are known from
 * their definition on), and every node with its depth, in document order.
 */
function resolveAliases(root: Node): { targets: Map<Node, Node>; order: [Node, number][] } {
  const targets = new Map<Node, Node>();
  const anchors = new Map<string, Node>();
  const order: [Node, number][] = [];
  const walk: [Node, number][] = [[root, 0]];
  while (walk.length > 0) {
    const [node, depth] = walk.pop()!;
    order.push([node, depth]);
    if (isAlias(node)) {
      const target = anchors.get(node.source);
      if (target) targets.set(node, target);
      continue;
    }
    if (node.anchor) anchors.set(node.anchor, node);
    const kids = childrenOf(node);
    for (let i = kids.length - 1; i >= 0; i--) walk.push([kids[i], depth + 1]);
  }
  return { targets, order };
}

/**
 * Pass 3, in document order: the first alias that passes a limit, its
 * target's size and depth measured (pass 2) once per anchor.
 */
function firstOverLimit(
  order: [Node, number][],
  targets: Map<Node, Node>,
  maxAdded: number,
  maxDepth: number,
): AliasProblem | undefined {
  const measured = new Map<Node, Measure>();
  let added = 0;
  for (const [node, depth] of order) {
    const target = isAlias(node) ? targets.get(node) : undefined;
    if (!target) continue;
    const m = measure(target, targets, measured);
    if (!m) return { kind: "cycle", alias: node, added: Infinity };
    added = Math.min(added + m.size, Number.MAX_SAFE_INTEGER);
    if (added > maxAdded) return { kind: "too-large", alias: node, added };
    if (depth + m.depth > maxDepth) return { kind: "too-deep", alias: node, added };
  }
  return undefined;
}

/**
 * Pass 2: the size and depth of `start`, aliases expanded, memoised in
 * `measured`; `undefined` when it contains an alias of itself. Without
 * recursion: each node is opened, its children measured, then closed.
 */
function measure(
  start: Node,
  targets: Map<Node, Node>,
  measured: Map<Node, Measure>,
): Measure | undefined {
  const open = new Set<Node>();
  const stack: [Node, boolean][] = [[start, false]];
  while (stack.length > 0) {
    const [node, expanded] = stack[stack.length - 1];
    if (measured.has(node)) {
      stack.pop();
      continue;
    }
    const target = isAlias(node) ? targets.get(node) : undefined;
    const kids = isAlias(node) ? (target ? [target] : []) : childrenOf(node);
    if (!expanded) {
      if (open.has(node)) return undefined;
      open.add(node);
      stack[stack.length - 1][1] = true;
      for (const kid of kids) if (!measured.has(kid)) stack.push([kid, false]);
      continue;
    }
    stack.pop();
    open.delete(node);
    measured.set(node, combine(node, kids, measured));
  }
  return measured.get(start);
}

/** A node's size and depth from its measured children's. */
function combine(node: Node, kids: Node[], measured: Map<Node, Measure>): Measure {
  let size = 1;
  let depth = 0;
  for (const kid of kids) {
    const m = measured.get(kid)!;
    size = Math.min(size + m.size, Number.MAX_SAFE_INTEGER);
    depth = Math.max(depth, m.depth);
  }
  return { size, depth: isAlias(node) || isScalar(node) ? depth : depth + 1 };
}

const isNode = (v: unknown): v is Node => isScalar(v) || isMap(v) || isSeq(v) || isAlias(v);

/** A collection's keys and values in document order; nothing for scalars and aliases. */
function childrenOf(node: Node): Node[] {
  const out: Node[] = [];
  if (isMap(node)) {
    for (const pair of node.items) {
      if (!isPair(pair)) continue;
      if (isNode(pair.key)) out.push(pair.key);
      if (isNode(pair.value)) out.push(pair.value);
    }
  } else if (isSeq(node)) {
    for (const item of node.items) if (isNode(item)) out.push(item);
  }
  return out;
}

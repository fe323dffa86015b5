/**
 * YAML nodes without the `yaml` package: the type tests every loader uses,
 * the few node classes the fast path builds, and line positions. The `yaml`
 * package loads through Deno's CommonJS emulation in about 75 ms, more than
 * a whole one-request run, so it is imported only for a file the fast path
 * cannot read (see `yaml_engine.ts`). Its nodes carry the same
 * `Symbol.for("yaml.*")` marks as these, so the tests below recognise both,
 * and code typed with `yaml`'s node types reads either.
 *
 * @module
 */
import { setOwn } from "../_util/own_property.ts";
import type { Document, Node, Pair, Scalar, YAMLMap, YAMLSeq } from "yaml";

const NODE_TYPE = Symbol.for("yaml.node.type");
const ALIAS = Symbol.for("yaml.alias");
const DOC = Symbol.for("yaml.document");
const MAP = Symbol.for("yaml.map");
const PAIR = Symbol.for("yaml.pair");
const SCALAR = Symbol.for("yaml.scalar");
const SEQ = Symbol.for("yaml.seq");

const marked = (node: unknown, kind: symbol): boolean =>
  !!node && typeof node === "object" && (node as Record<symbol, unknown>)[NODE_TYPE] === kind;

/**
 * Whether `node` is a YAML map (of either origin).
 *
 * @example
 * ```ts
 * import { isMap, mapNode } from "./nodes.ts";
 * if (!isMap(mapNode(0)) || isMap({})) throw new Error();
 * ```
 */
export const isMap = (node: unknown): node is YAMLMap<unknown, unknown> => marked(node, MAP);

/**
 * Whether `node` is a YAML sequence.
 *
 * @example
 * ```ts
 * import { isSeq, seqNode } from "./nodes.ts";
 * if (!isSeq(seqNode(0))) throw new Error();
 * ```
 */
export const isSeq = (node: unknown): node is YAMLSeq<unknown> => marked(node, SEQ);

/**
 * Whether `node` is a YAML scalar.
 *
 * @example
 * ```ts
 * import { isScalar, scalarNode } from "./nodes.ts";
 * if (!isScalar(scalarNode(1, "PLAIN", "1", [0, 1, 1]))) throw new Error();
 * ```
 */
export const isScalar = (node: unknown): node is Scalar<unknown> => marked(node, SCALAR);

/**
 * Whether `node` is a key–value pair of a map.
 *
 * @example
 * ```ts
 * import { isPair, pairNode, scalarNode } from "./nodes.ts";
 * const k = scalarNode("a", "PLAIN", "a", [0, 1, 1]);
 * if (!isPair(pairNode(k, null))) throw new Error();
 * ```
 */
export const isPair = (node: unknown): node is Pair<unknown, unknown> => marked(node, PAIR);

/**
 * Whether `node` is an alias (`*name`); only the full parser makes them.
 *
 * @example
 * ```ts
 * import { isAlias } from "./nodes.ts";
 * if (isAlias({})) throw new Error();
 * ```
 */
export const isAlias = (node: unknown): node is Node & { source: string } => marked(node, ALIAS);

// The classes stay private: callers see them through `yaml`'s types, which they satisfy for
// everything the loader reads (items, key, value, range, type, source, flow, toJSON); the
// loader reads maps through its own entries, never `yaml`'s `get`/`has`.
class FastScalar {
  declare [NODE_TYPE]: symbol;
  constructor(
    public value: unknown,
    public type: string,
    public source: string,
    public range: [number, number, number],
  ) {}
  toJSON(): unknown {
    return typeof this.value === "bigint" ? Number(this.value) : this.value;
  }
  /** As the `yaml` package: messages interpolate key nodes. */
  toString(): string {
    return String(this.value);
  }
}
FastScalar.prototype[NODE_TYPE] = SCALAR;

class FastPair {
  declare [NODE_TYPE]: symbol;
  constructor(public key: unknown, public value: unknown) {}
}
FastPair.prototype[NODE_TYPE] = PAIR;

const toJS = (node: unknown): unknown =>
  node && typeof (node as { toJSON?: unknown }).toJSON === "function"
    ? (node as { toJSON(): unknown }).toJSON()
    : node;

class FastMap {
  declare [NODE_TYPE]: symbol;
  items: FastPair[] = [];
  flow = false;
  range: [number, number, number];
  constructor(start: number) {
    this.range = [start, start, start];
  }
  /** As the `yaml` package: keys as strings (null as ""), `__proto__` as an own property. */
  toJSON(): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const { key, value } of this.items) {
      const k = toJS(key);
      const name = k === null ? "" : String(k);
      setOwn(out, name, toJS(value));
    }
    return out;
  }
}
FastMap.prototype[NODE_TYPE] = MAP;

class FastSeq {
  declare [NODE_TYPE]: symbol;
  items: unknown[] = [];
  flow = false;
  range: [number, number, number];
  constructor(start: number) {
    this.range = [start, start, start];
  }
  toJSON(): unknown[] {
    return this.items.map(toJS);
  }
}
FastSeq.prototype[NODE_TYPE] = SEQ;

class FastDocument {
  declare [NODE_TYPE]: symbol;
  errors: never[] = [];
  warnings: never[] = [];
  constructor(public contents: unknown) {}
}
FastDocument.prototype[NODE_TYPE] = DOC;

/**
 * A scalar node; `type` is one of `yaml`'s scalar types (`"PLAIN"`, `"QUOTE_DOUBLE"`, …).
 *
 * @example
 * ```ts
 * import { scalarNode } from "./nodes.ts";
 * const s = scalarNode(7n, "PLAIN", "7", [3, 4, 5]);
 * if (s.toJSON() !== 7 || s.range?.[1] !== 4) throw new Error();
 * ```
 */
export function scalarNode(
  value: unknown,
  type: Scalar.Type,
  source: string,
  range: [number, number, number],
): Scalar {
  return new FastScalar(value, type, source, range) as unknown as Scalar;
}

/**
 * A map node starting at `start`; fill its `items` and set its `range`.
 *
 * @example
 * ```ts
 * import { mapNode, pairNode, scalarNode } from "./nodes.ts";
 * const m = mapNode(0);
 * m.items.push(pairNode(scalarNode("a", "PLAIN", "a", [0, 1, 1]), scalarNode(1n, "PLAIN", "1", [3, 4, 4])));
 * if (JSON.stringify(m.toJSON()) !== '{"a":1}') throw new Error();
 * ```
 */
export function mapNode(start: number): YAMLMap<unknown, unknown> {
  return new FastMap(start) as unknown as YAMLMap<unknown, unknown>;
}

/**
 * A sequence node starting at `start`.
 *
 * @example
 * ```ts
 * import { seqNode } from "./nodes.ts";
 * if (seqNode(2).items.length !== 0) throw new Error();
 * ```
 */
export function seqNode(start: number): YAMLSeq<unknown> {
  return new FastSeq(start) as unknown as YAMLSeq<unknown>;
}

/**
 * A key–value pair.
 *
 * @example
 * ```ts
 * import { pairNode } from "./nodes.ts";
 * if (pairNode("k", "v").value !== "v") throw new Error();
 * ```
 */
export function pairNode(key: unknown, value: unknown): Pair<unknown, unknown> {
  return new FastPair(key, value) as unknown as Pair<unknown, unknown>;
}

/**
 * A document holding `contents`, without errors.
 *
 * @example
 * ```ts
 * import { documentNode } from "./nodes.ts";
 * if (documentNode(null).errors.length !== 0) throw new Error();
 * ```
 */
export function documentNode(contents: unknown): Document.Parsed {
  return new FastDocument(contents) as unknown as Document.Parsed;
}

/**
 * The offsets where lines start, and 1-based line and column of an offset,
 * as the `yaml` package's `LineCounter` computes them.
 *
 * @example
 * ```ts
 * import { LineCounter } from "./nodes.ts";
 * const lines = new LineCounter();
 * [0, 4, 9].forEach(lines.addNewLine);
 * const at = lines.linePos(6);
 * if (at.line !== 2 || at.col !== 3) throw new Error();
 * ```
 */
export class LineCounter {
  readonly lineStarts: number[] = [];
  /** Call in ascending order; a property so it can be passed as a callback. */
  readonly addNewLine = (offset: number): number => this.lineStarts.push(offset);
  /** `line` 0 when no line was added or `offset` is before the first. */
  readonly linePos = (offset: number): { line: number; col: number } => {
    const starts = this.lineStarts;
    let low = 0;
    let high = starts.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (starts[mid] < offset) low = mid + 1;
      else high = mid;
    }
    if (starts[low] === offset) return { line: low + 1, col: 1 };
    if (low === 0) return { line: 0, col: offset };
    return { line: low, col: offset - starts[low - 1] + 1 };
  };
}

/**
 * The flow collections of the YAML fast path (`fast_yaml.ts`): a `[ … ]`
 * or `{ … }` that opens and closes on one line, with the same nodes and
 * ranges as the `yaml` package builds.
 *
 * @module
 */
import type { Node, Pair, Scalar, YAMLMap, YAMLSeq } from "yaml";
import { mapNode, pairNode, seqNode } from "./nodes.ts";
import {
  giveUp,
  INDICATOR_START,
  MAX_NESTING,
  resolvePlain,
  scalar,
  unescape,
} from "./fast_yaml_scalars.ts";

/** Characters that end a plain scalar inside a flow collection, after a ":". */
const FLOW_BREAK = /[ ,[\]{}]/;

/**
 * A flow collection (`[ … ]` or `{ … }`) that opens and closes on one line:
 * `text` from `i` up to the line's `end`, `depth` levels deep already.
 *
 * @example
 * ```ts
 * import { FlowReader } from "./fast_yaml_flow.ts";
 * const text = "a: {b: [1, 'x'], c: }";
 * const reader = new FlowReader(text, 3, text.length, 0);
 * const node = reader.collection();
 * if (JSON.stringify(node.toJSON()) !== '{"b":[1,"x"],"c":null}' || reader.i !== text.length) throw new Error();
 * ```
 */
export class FlowReader {
  constructor(
    readonly text: string,
    public i: number,
    readonly end: number,
    public depth: number,
  ) {}

  spaces(): void {
    while (this.text.charCodeAt(this.i) === 32) this.i++;
    if (this.text[this.i] === "#" || this.i >= this.end) giveUp();
  }

  /** The collection that opens at `i`; leaves `i` after it. */
  collection(): YAMLMap | YAMLSeq {
    if (++this.depth > MAX_NESTING) giveUp();
    const text = this.text;
    const open = this.i;
    const isMap = text[open] === "{";
    const close = isMap ? "}" : "]";
    const node = isMap ? mapNode(open) : seqNode(open);
    node.flow = true;
    const seen = new Set<string>();
    this.i++;
    this.spaces();
    while (text[this.i] !== close) {
      if (isMap) (node as YAMLMap).items.push(this.pair(seen));
      else (node as YAMLSeq).items.push(this.listItem());
      if (text[this.i] === ",") {
        this.i++;
        this.spaces();
      } else if (text[this.i] !== close) giveUp();
    }
    this.i++;
    node.range = [open, this.i, this.i];
    this.depth--;
    return node;
  }

  /** A `key: value` of a flow map; a key met before (or a merge key) goes to the full parser. */
  pair(seen: Set<string>): Pair<unknown, unknown> {
    const text = this.text;
    const key = this.item(true);
    if (text[this.i] !== ":") giveUp();
    const name = String((key as Scalar).value);
    if (seen.has(name) || name === "<<") giveUp();
    seen.add(name);
    this.i++;
    this.spaces();
    const value = text[this.i] === "," || text[this.i] === "}"
      ? scalar(null, "PLAIN", "", [this.i, this.i, this.i])
      : this.item(false);
    return pairNode(key, value);
  }

  /** An item of a flow list; a pair inside a list goes to the full parser. */
  listItem(): Node {
    const item = this.item(false);
    if (this.text[this.i] === ":") giveUp();
    return item;
  }

  /** A key or value inside the collection; leaves `i` at the next indicator. */
  item(isKey: boolean): Node {
    const text = this.text;
    const c = text[this.i];
    let node: Node;
    if (c === "[" || c === "{") {
      if (isKey) giveUp();
      node = this.collection();
    } else if (c === '"' || c === "'") node = this.quoted(c);
    else node = this.plain(c);
    // Spaces after an item belong to its range, as the yaml package counts it.
    while (text.charCodeAt(this.i) === 32) this.i++;
    if (this.i >= this.end || text[this.i] === "#") giveUp();
    if (!isKey) node.range![2] = this.i;
    return node;
  }

  /** A quoted scalar opening with `q` at `i`; leaves `i` after its closing quote. */
  quoted(q: string): Scalar {
    const text = this.text;
    const start = this.i;
    const body: string[] = [];
    let j = start + 1;
    for (;; j++) {
      if (j >= this.end) giveUp();
      if (q === '"' && text[j] === "\\") {
        body.push(text[j], text[j + 1]);
        j++;
        continue;
      }
      if (text[j] !== q) {
        body.push(text[j]);
        continue;
      }
      if (q !== "'" || text[j + 1] !== "'") break;
      body.push("'");
      j++;
    }
    const raw = body.join("");
    const value = q === '"' ? unescape(raw) : raw;
    this.i = j + 1;
    return scalar(value, q === '"' ? "QUOTE_DOUBLE" : "QUOTE_SINGLE", value, [start, j + 1, j + 1]);
  }

  /** A plain scalar starting with `c` at `i`; leaves `i` after its last non-space. */
  plain(c: string): Scalar {
    const text = this.text;
    if (INDICATOR_START.test(c) && c !== "-" && c !== "?" && c !== ":") giveUp();
    if ((c === "-" || c === "?" || c === ":") && FLOW_BREAK.test(text[this.i + 1] ?? " ")) {
      giveUp();
    }
    const start = this.i;
    const j = this.plainEnd(start);
    let last = j;
    while (text.charCodeAt(last - 1) === 32) last--;
    if (text[j] === "[" || text[j] === "{") giveUp();
    const source = text.slice(start, last);
    this.i = last;
    return scalar(resolvePlain(source), "PLAIN", source, [start, last, last]);
  }

  /** Where a plain scalar from `start` stops: an indicator, or ": "; a comment gives up. */
  plainEnd(start: number): number {
    const text = this.text;
    let j = start;
    for (; j < this.end; j++) {
      const ch = text[j];
      if (ch === "," || ch === "[" || ch === "]" || ch === "{" || ch === "}") break;
      if (ch === ":" && FLOW_BREAK.test(text[j + 1] ?? " ")) break;
      if (ch === "#" && text[j - 1] === " ") giveUp();
    }
    return j;
  }
}

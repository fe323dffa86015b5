/**
 * A fast path for the YAML that flow files are made of: block maps and
 * lists, one-line flow collections, plain and quoted one-line scalars,
 * comments. It builds the same nodes, with the same source ranges, as the
 * `yaml` package (which takes most of a flow file's load time), and gives up
 * (`undefined`) on anything else: anchors, aliases, tags, block and
 * multi-line scalars, merge keys, duplicate keys, tabs, CR, syntax errors.
 * The full parser then reads the file, so every message stays the same.
 *
 * @module
 */
import type { Document, Node, Scalar, YAMLMap, YAMLSeq } from "yaml";
import { documentNode, mapNode, pairNode, scalarNode, seqNode } from "./nodes.ts";

/** Thrown inside the fast path to hand the file to the full parser. */
class GiveUp extends Error {}

const giveUp = (): never => {
  throw new GiveUp();
};

/** Nesting the fast path takes on (the full parser has its own, larger limit). */
const MAX_NESTING = 64;

/** What the fast path made of a file: the document and the offset of each line start (as the yaml parser reports them, a last empty line included). */
export interface FastParse {
  doc: Document;
  lineStarts: number[];
}

/**
 * Parses `text` when it keeps to the common subset, else `undefined`.
 *
 * @example
 * ```ts
 * import { fastParse } from "./fast_yaml.ts";
 * import { isMap } from "./nodes.ts";
 * const parsed = fastParse("name: a\nsteps:\n  - name: s # c\n    request: {url: 'http://x.test'}\n");
 * if (!parsed || !isMap(parsed.doc.contents) || parsed.lineStarts.length !== 5) throw new Error();
 * if (fastParse("a: 1\n")?.lineStarts.join() !== "0,5") throw new Error("the line after the last newline counts");
 * if (fastParse("a: &x 1\nb: *x\n") !== undefined) throw new Error("anchors go to the full parser");
 * ```
 */
export function fastParse(text: string): FastParse | undefined {
  if (/[\t\r\uFEFF]/.test(text)) return undefined;
  try {
    const reader = new Reader(text);
    const contents = reader.document();
    return { doc: documentNode(contents), lineStarts: reader.lineStarts };
  } catch (error) {
    if (error instanceof GiveUp) return undefined;
    throw error;
  }
}

/** A source line: where it starts, its indentation, and whether it holds anything. */
interface Line {
  start: number;
  end: number;
  indent: number;
  /** Blank or only a comment. */
  empty: boolean;
}

const INDICATOR_START = /[-?:,[\]{}#&*!|>'"%@`]/;
const INT = /^[-+]?[0-9]+$/;
const FLOAT = /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?$/;
const ESCAPES: Record<string, string> = {
  "0": "\0",
  a: "\x07",
  b: "\b",
  t: "\t",
  n: "\n",
  v: "\v",
  f: "\f",
  r: "\r",
  e: "\x1b",
  " ": " ",
  '"': '"',
  "/": "/",
  "\\": "\\",
  N: "\u0085",
  _: "\u00a0",
  L: "\u2028",
  P: "\u2029",
};

/** A plain scalar's value under the YAML 1.2 core schema, integers as BigInt (as the loader asks). */
function resolvePlain(source: string): unknown {
  switch (source) {
    case "":
    case "~":
    case "null":
    case "Null":
    case "NULL":
      return null;
    case "true":
    case "True":
    case "TRUE":
      return true;
    case "false":
    case "False":
    case "FALSE":
      return false;
  }
  const c = source.charCodeAt(0);
  // Only text that starts like a number can be one.
  if (!(c >= 48 && c <= 57) && c !== 43 && c !== 45 && c !== 46) return source;
  if (INT.test(source)) return BigInt(source[0] === "+" ? source.slice(1) : source);
  if (/^0o[0-7]+$/.test(source) || /^0x[0-9a-fA-F]+$/.test(source)) return BigInt(source);
  if (FLOAT.test(source)) return Number(source);
  if (/^[-+]?\.(?:inf|Inf|INF)$/.test(source)) {
    return source[0] === "-" ? -Infinity : Infinity;
  }
  if (/^\.(?:nan|NaN|NAN)$/.test(source)) return NaN;
  return source;
}

function scalar(value: unknown, type: Scalar.Type, source: string, range: number[]): Scalar {
  return scalarNode(own(value), type, source, range as [number, number, number]);
}

/**
 * A string that does not keep the file's text alive. V8 makes a slice of 13
 * characters or more a view into the whole text, so a loaded flow holding a
 * few such values held its file's text until the flow had run: a copy per
 * value is cheaper than that at thousands of flows.
 */
function own(value: unknown): unknown {
  return typeof value === "string" && value.length >= 13 ? (` ${value}`).slice(1) : value;
}

class Reader {
  readonly lineStarts: number[] = [];
  readonly lines: Line[] = [];
  /** The next line to read. */
  at = 0;
  depth = 0;

  constructor(readonly text: string) {
    let start = 0;
    while (start <= text.length) {
      this.lineStarts.push(start);
      const nl = text.indexOf("\n", start);
      const end = nl === -1 ? text.length : nl;
      let i = start;
      while (i < end && text.charCodeAt(i) === 32) i++;
      const empty = i === end || text[i] === "#";
      this.lines.push({ start, end, indent: i - start, empty });
      if (nl === -1) break;
      start = nl + 1;
    }
    // The yaml package counts a comment line into the range of the node before it, or of
    // the one around it, by rules of indentation that are not worth copying: only comments
    // aligned with the line after them (or at column 0 at the end) stay on the fast path.
    let next: Line | undefined;
    for (let n = this.lines.length - 1; n >= 0; n--) {
      const line = this.lines[n];
      if (!line.empty) next = line;
      else if (line.indent < line.end - line.start && line.indent !== (next?.indent ?? 0)) {
        giveUp();
      }
    }
  }

  /** The next line with content, skipping blank and comment lines. */
  peek(): Line | undefined {
    while (this.at < this.lines.length && this.lines[this.at].empty) this.at++;
    return this.lines[this.at];
  }

  document(): Node | null {
    const first = this.peek();
    if (!first) return null;
    const text = this.text;
    // Directives, document markers: the full parser's business.
    if (text.startsWith("%") || /^(---|\.\.\.)( |$)/m.test(text)) giveUp();
    if (first.indent !== 0) giveUp();
    const node = this.block(first);
    if (this.peek()) giveUp();
    return node;
  }

  /** A block collection starting at `line` (a list when it starts with "- "). */
  block(line: Line): Node {
    if (++this.depth > MAX_NESTING) giveUp();
    const node = this.isDash(line.start + line.indent)
      ? this.seq(line.indent)
      : this.map(line.indent, line.start + line.indent);
    this.depth--;
    return node;
  }

  /** Whether a list item's dash ("- ", or "-" ending the line) is at `i`. */
  isDash(i: number): boolean {
    if (this.text.charCodeAt(i) !== 45) return false;
    const next = this.text[i + 1];
    return next === " " || next === "\n" || next === undefined;
  }

  /**
   * The value of a key or dash with nothing after it on its line: the block
   * indented below it (or, for a key, a list at its own indent), else empty.
   */
  below(i: number, line: Line, indent: number, listAtIndent: boolean): Node {
    const raw = this.at + 1;
    this.at++;
    const next = this.peek();
    if (
      next &&
      (next.indent > indent ||
        (listAtIndent && next.indent === indent && this.isDash(next.start + next.indent)))
    ) return this.block(next);
    return this.empty(i, line.end, raw);
  }

  /** A block list whose dashes are at column `indent`. */
  seq(indent: number): YAMLSeq {
    const seq = seqNode(0);
    const text = this.text;
    let start = -1;
    let end = 0;
    for (let line = this.peek(); line && line.indent === indent; line = this.peek()) {
      const dash = line.start + indent;
      if (!this.isDash(dash)) break;
      if (start === -1) start = dash;
      let i = dash + 1;
      while (text.charCodeAt(i) === 32) i++;
      let item: Node;
      if (i >= line.end || text[i] === "#") {
        item = this.below(i, line, indent, false); // "-" alone
      } else if (this.isDash(i)) {
        item = giveUp(); // "- - x": a list in a list on one line
      } else if (this.keyAhead(i, line.end)) {
        // "- key: value": a map whose keys line up after the dash.
        const inner: Line = { ...line, indent: i - line.start };
        this.lines[this.at] = inner;
        if (++this.depth > MAX_NESTING) giveUp();
        item = this.map(inner.indent, i);
        this.depth--;
      } else {
        item = this.inlineValue(i, line, indent);
      }
      seq.items.push(item);
      end = item.range![2];
    }
    seq.range = [start, end, end];
    return seq;
  }

  /** Whether a "key: " (or "key:" at the end) starts at `i` on this line. */
  keyAhead(i: number, end: number): boolean {
    const text = this.text;
    const c = text[i];
    if (c === '"' || c === "'") {
      const close = this.quoteEnd(i, end);
      return close !== -1 && text[close] === ":" && (close + 1 === end || text[close + 1] === " ");
    }
    if (c === "[" || c === "{") return false;
    for (let j = i; j < end; j++) {
      const ch = text[j];
      if (ch === ":" && (j + 1 === end || text[j + 1] === " ")) return true;
      if (ch === "#" && text[j - 1] === " ") return false;
    }
    return false;
  }

  /** The offset after a quoted scalar starting at `i`, or -1 when it does not close on the line. */
  quoteEnd(i: number, end: number): number {
    const text = this.text;
    const q = text[i];
    for (let j = i + 1; j < end; j++) {
      if (q === '"' && text[j] === "\\") {
        j++;
        continue;
      }
      if (text[j] === q) {
        if (q === "'" && text[j + 1] === "'") {
          j++;
          continue;
        }
        return j + 1;
      }
    }
    return -1;
  }

  /** A block map whose keys are at column `indent`; the first key starts at `first`. */
  map(indent: number, first: number): YAMLMap {
    const map = mapNode(0);
    const text = this.text;
    const seen = new Set<string>();
    let end = 0;
    for (let line = this.peek(); line && line.indent === indent; line = this.peek()) {
      const k = line.start + indent;
      if (this.isDash(k)) break; // a list at this indent ends the map
      const key = this.key(k, line.end);
      const name = String(key.value);
      if (seen.has(name) || name === "<<") giveUp();
      seen.add(name);
      let i = key.range![1] + 1; // after ":"
      while (text.charCodeAt(i) === 32) i++;
      let value: Node;
      if (i >= line.end || text[i] === "#") value = this.below(i, line, indent, true);
      else value = this.inlineValue(i, line, indent);
      map.items.push(pairNode(key, value));
      end = value.range![2];
    }
    map.range = [first, end, end];
    return map;
  }

  /**
   * An empty value at `i` (after "key:" and spaces): null. Only when nothing
   * follows on its line and the next line holds content: yaml stretches an
   * empty value's range over comments and blank lines after it.
   */
  empty(i: number, lineEnd: number, next: number): Scalar {
    if (i < lineEnd || this.lines[next]?.empty !== false) giveUp();
    return scalar(null, "PLAIN", "", [i, i, i]);
  }

  /** A key of a block map at `i`, up to its ":". */
  key(i: number, end: number): Scalar {
    const text = this.text;
    const c = text[i];
    if (c === '"' || c === "'") {
      const close = this.quoteEnd(i, end);
      if (close === -1 || text[close] !== ":" || (close + 1 < end && text[close + 1] !== " ")) {
        giveUp();
      }
      return this.quoted(i, close);
    }
    if (INDICATOR_START.test(c)) giveUp();
    let j = i;
    while (j < end && !(text[j] === ":" && (j + 1 === end || text[j + 1] === " "))) {
      if (text[j] === "#" && text[j - 1] === " ") giveUp();
      j++;
    }
    if (j >= end) giveUp();
    let last = j;
    while (last > i && text.charCodeAt(last - 1) === 32) last--;
    const source = text.slice(i, last);
    return scalar(resolvePlain(source), "PLAIN", source, [i, last, last]);
  }

  /** A value that starts on its key's (or dash's) line at `i`, and ends the line. */
  inlineValue(i: number, line: Line, indent: number): Node {
    const text = this.text;
    const c = text[i];
    let node: Node;
    let after: number;
    if (c === "[" || c === "{") {
      const flow = new FlowReader(text, i, line.end, this.depth);
      node = flow.collection();
      after = flow.i;
    } else if (c === '"' || c === "'") {
      const close = this.quoteEnd(i, line.end);
      if (close === -1) giveUp();
      node = this.quoted(i, close);
      after = close;
    } else {
      if (INDICATOR_START.test(c) && c !== "-" && c !== "?" && c !== ":") giveUp();
      if ((c === "-" || c === "?" || c === ":") && (text[i + 1] === " " || i + 1 === line.end)) {
        giveUp();
      }
      let j = i;
      while (j < line.end && !(text[j] === "#" && text[j - 1] === " ")) {
        if (text[j] === ":" && (j + 1 === line.end || text[j + 1] === " ")) giveUp();
        j++;
      }
      let last = j;
      while (text.charCodeAt(last - 1) === 32) last--;
      const source = text.slice(i, last);
      node = scalar(resolvePlain(source), "PLAIN", source, [i, last, 0]);
      after = last;
    }
    // Only spaces and a comment may follow on the line.
    while (text.charCodeAt(after) === 32) after++;
    if (after < line.end && !(text[after] === "#" && text[after - 1] === " ")) giveUp();
    const lineEnd = Math.min(line.end + 1, text.length);
    node.range![2] = lineEnd;
    this.at++;
    // A more indented line after it would continue it (a multi-line scalar) or be an error.
    const next = this.peek();
    if (next && next.indent > indent) giveUp();
    return node;
  }

  /** A quoted scalar from `i` to `close` (after the closing quote). */
  quoted(i: number, close: number): Scalar {
    const text = this.text;
    const body = text.slice(i + 1, close - 1);
    if (text[i] === "'") {
      const value = body.replaceAll("''", "'");
      return scalar(value, "QUOTE_SINGLE", value, [i, close, close]);
    }
    const value = unescape(body);
    return scalar(value, "QUOTE_DOUBLE", value, [i, close, close]);
  }
}

/** A double-quoted scalar's escapes; one it does not know goes to the full parser. */
function unescape(body: string): string {
  if (!body.includes("\\")) return body;
  let out = "";
  for (let j = 0; j < body.length; j++) {
    const ch = body[j];
    if (ch !== "\\") {
      out += ch;
      continue;
    }
    const e = body[++j];
    if (e in ESCAPES) out += ESCAPES[e];
    else {
      const size = e === "x" ? 2 : e === "u" ? 4 : e === "U" ? 8 : 0;
      const hex = body.slice(j + 1, j + 1 + size);
      if (size === 0 || !/^[0-9a-fA-F]+$/.test(hex) || hex.length !== size) giveUp();
      const code = parseInt(hex, 16);
      if (code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) giveUp();
      out += String.fromCodePoint(code);
      j += size;
    }
  }
  return out;
}

/** A flow collection (`[ … ]` or `{ … }`) that opens and closes on one line. */
class FlowReader {
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
      if (isMap) {
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
        (node as YAMLMap).items.push(pairNode(key, value));
      } else {
        const item = this.item(false);
        if (text[this.i] === ":") giveUp(); // a pair inside a list
        (node as YAMLSeq).items.push(item);
      }
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

  /** A key or value inside the collection; leaves `i` at the next indicator. */
  item(isKey: boolean): Node {
    const text = this.text;
    const c = text[this.i];
    let node: Node;
    if (c === "[" || c === "{") {
      if (isKey) giveUp();
      node = this.collection();
    } else if (c === '"' || c === "'") {
      const start = this.i;
      const body: string[] = [];
      let j = start + 1;
      for (;; j++) {
        if (j >= this.end) giveUp();
        if (c === '"' && text[j] === "\\") {
          body.push(text[j], text[j + 1]);
          j++;
          continue;
        }
        if (text[j] === c) {
          if (c === "'" && text[j + 1] === "'") {
            body.push("'");
            j++;
            continue;
          }
          break;
        }
        body.push(text[j]);
      }
      const raw = body.join("");
      const value = c === '"' ? unescape(raw) : raw;
      node = scalar(
        value,
        c === '"' ? "QUOTE_DOUBLE" : "QUOTE_SINGLE",
        value,
        [start, j + 1, j + 1],
      );
      this.i = j + 1;
    } else {
      if (INDICATOR_START.test(c) && c !== "-" && c !== "?" && c !== ":") giveUp();
      if ((c === "-" || c === "?" || c === ":") && /[ ,[\]{}]/.test(text[this.i + 1] ?? " ")) {
        giveUp();
      }
      const start = this.i;
      let j = start;
      for (; j < this.end; j++) {
        const ch = text[j];
        if (ch === "," || ch === "[" || ch === "]" || ch === "{" || ch === "}") break;
        if (ch === ":" && /[ ,[\]{}]/.test(text[j + 1] ?? " ")) break;
        if (ch === "#" && text[j - 1] === " ") giveUp();
      }
      let last = j;
      while (text.charCodeAt(last - 1) === 32) last--;
      if (text[j] === "[" || text[j] === "{") giveUp();
      const source = text.slice(start, last);
      node = scalar(resolvePlain(source), "PLAIN", source, [start, last, last]);
      this.i = last;
    }
    // Spaces after an item belong to its range, as the yaml package counts it.
    while (text.charCodeAt(this.i) === 32) this.i++;
    if (this.i >= this.end || text[this.i] === "#") giveUp();
    if (!isKey) node.range![2] = this.i;
    return node;
  }
}

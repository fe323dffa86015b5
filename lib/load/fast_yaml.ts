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
import { documentNode, mapNode, pairNode, seqNode } from "./nodes.ts";
import {
  GiveUp,
  giveUp,
  INDICATOR_START,
  MAX_NESTING,
  resolvePlain,
  scalar,
  unescape,
} from "./fast_yaml_scalars.ts";
import { FlowReader } from "./fast_yaml_flow.ts";

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
    const c = this.text[i];
    if (c === '"' || c === "'") return this.quotedKey(i, end);
    if (INDICATOR_START.test(c)) giveUp();
    const j = this.colon(i, end);
    let last = j;
    while (last > i && this.text.charCodeAt(last - 1) === 32) last--;
    const source = this.text.slice(i, last);
    return scalar(resolvePlain(source), "PLAIN", source, [i, last, last]);
  }

  /** A quoted key at `i`: its closing quote must be followed by ":" and a space or the line end. */
  quotedKey(i: number, end: number): Scalar {
    const text = this.text;
    const close = this.quoteEnd(i, end);
    if (close === -1 || text[close] !== ":" || (close + 1 < end && text[close + 1] !== " ")) {
      giveUp();
    }
    return this.quoted(i, close);
  }

  /** Where the ":" that ends a plain key from `i` is; none on the line, or a comment first, gives up. */
  colon(i: number, end: number): number {
    const text = this.text;
    let j = i;
    while (j < end && !(text[j] === ":" && (j + 1 === end || text[j + 1] === " "))) {
      if (text[j] === "#" && text[j - 1] === " ") giveUp();
      j++;
    }
    if (j >= end) giveUp();
    return j;
  }

  /** A value that starts on its key's (or dash's) line at `i`, and ends the line. */
  inlineValue(i: number, line: Line, indent: number): Node {
    const text = this.text;
    const node = this.inlineNode(i, line.end);
    // Only spaces and a comment may follow on the line.
    let after = node.range![1];
    while (text.charCodeAt(after) === 32) after++;
    if (after < line.end && !(text[after] === "#" && text[after - 1] === " ")) giveUp();
    node.range![2] = Math.min(line.end + 1, text.length);
    this.at++;
    // A more indented line after it would continue it (a multi-line scalar) or be an error.
    const next = this.peek();
    if (next && next.indent > indent) giveUp();
    return node;
  }

  /** The flow collection, quoted or plain scalar at `i`, up to the line's `end`. */
  inlineNode(i: number, end: number): Node {
    const c = this.text[i];
    if (c === "[" || c === "{") return new FlowReader(this.text, i, end, this.depth).collection();
    if (c !== '"' && c !== "'") return this.plain(i, end);
    const close = this.quoteEnd(i, end);
    if (close === -1) giveUp();
    return this.quoted(i, close);
  }

  /** A plain scalar at `i` that ends its line (but for a comment). */
  plain(i: number, end: number): Scalar {
    const text = this.text;
    if (!plainStart(text, i, end)) giveUp();
    let j = i;
    while (j < end && !(text[j] === "#" && text[j - 1] === " ")) {
      if (text[j] === ":" && (j + 1 === end || text[j + 1] === " ")) giveUp();
      j++;
    }
    let last = j;
    while (text.charCodeAt(last - 1) === 32) last--;
    const source = text.slice(i, last);
    return scalar(resolvePlain(source), "PLAIN", source, [i, last, 0]);
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

/**
 * Whether a plain scalar may start at `i`: not with an indicator, but for
 * "-", "?" and ":" followed by more than a space or the line end.
 */
function plainStart(text: string, i: number, end: number): boolean {
  const c = text[i];
  if (c !== "-" && c !== "?" && c !== ":") return !INDICATOR_START.test(c);
  return text[i + 1] !== " " && i + 1 !== end;
}

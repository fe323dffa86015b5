/**
 * Hints that move a block's lines: the children of a step key left empty
 * written at its own level (`request:`, then `url:` beside it), and a key of
 * a block written just below it at its parent's level (`method:` two spaces
 * short of `request:`'s keys). Each reads only the lines near the key.
 *
 * @module
 */
import type { Node } from "yaml";
import { isScalar } from "./nodes.ts";
import { STEP_KEYS } from "./key_hints.ts";
import { column, isContent, keyOf, LOOKBACK, opensBlock, spaces } from "./yaml_lines.ts";

/**
 * For a key of a step left empty (`request:`, its value the null `node` of
 * the document `text`) whose children were written at its own level, the
 * edit that puts them under it: the lines after it, up to the step's next
 * key, 2 spaces deeper. `undefined` when the lines after it are no such
 * children. `lineOf` gives an offset's line (the loader's line counter).
 *
 * @example
 * ```ts
 * import { emptyBlockHint } from "./yaml_block_hints.ts";
 * import { parseDocument } from "yaml";
 * const text = "steps:\n  - name: s\n    request:\n    url: http://x.test\n    assert: {status: 200}\n";
 * // deno-lint-ignore no-explicit-any
 * const step = (parseDocument(text).contents as any).items[0].value.items[0];
 * const hint = emptyBlockHint(text, step.items[1].value);
 * if (hint !== 'Indent line 4 by 2 more spaces, under "request:" on line 3.') throw new Error(hint);
 * ```
 */
export function emptyBlockHint(
  text: string,
  node: Node | null,
  lineOf: (offset: number) => number = (o) => text.slice(0, o).split("\n").length,
): string | undefined {
  if (!isScalar(node) || node.value !== null) return undefined;
  const at = node.range?.[0] ?? 0;
  // Read from the key's line on, a line at a time: this runs for every empty map of a file.
  const next = lineReader(text, text.lastIndexOf("\n", at - 1) + 1);
  const head = next() ?? "";
  const key = keyOf(head);
  if (!key || !(STEP_KEYS as readonly string[]).includes(key[3]) || !opensBlock(head)) {
    return undefined;
  }
  const under = stepChildren(next, column(key));
  if (under === 0) return undefined;
  const line = lineOf(at);
  const which = under > 1 ? `lines ${line + 1} to ${line + under}` : `line ${line + 1}`;
  return `Indent ${which} by 2 more spaces, under "${key[3]}:" on line ${line}.`;
}

/** The lines of `text` from offset `start` on, one per call; `undefined` past the end. */
function lineReader(text: string, start: number): () => string | undefined {
  return () => {
    if (start > text.length) return undefined;
    const end = text.indexOf("\n", start);
    const source = text.slice(start, end < 0 ? text.length : end);
    start = end < 0 ? text.length + 1 : end + 1;
    return source;
  };
}

/**
 * How many of the next lines are children written at the level `at` of
 * their step key: up to the step's next key or a line left of it.
 */
function stepChildren(next: () => string | undefined, at: number): number {
  let under = 0;
  for (let n = 1; n <= LOOKBACK; n++) {
    const source = next();
    if (source === undefined) break;
    if (!isContent(source)) continue;
    const indent = source.length - source.trimStart().length;
    const child = keyOf(source);
    const stepKey = !child || (STEP_KEYS as readonly string[]).includes(child[3]);
    if (indent < at || indent === at && stepKey) break;
    under = n;
  }
  return under;
}

/** What finding a key's line needs of the loading context: the text and its line counter. */
interface Source {
  readonly text: string;
  readonly lines: { linePos(offset: number): { line: number } };
}

/**
 * A "belongs under" hint (`The method belongs under "request:".`) with the
 * edit, when the key sits right below that block at its parent's level: the
 * column of the block's keys; the hint as it is otherwise.
 *
 * @example
 * ```ts
 * import { underBlockHint } from "./yaml_block_hints.ts";
 * import { LineCounter } from "./nodes.ts";
 * const text = "  - name: s\n    request:\n      url: http://x.test\n    method: GET\n";
 * const lines = new LineCounter();
 * for (const start of [0, 12, 25, 50, text.length]) lines.addNewLine(start);
 * const keyNode = { range: [text.indexOf("method"), 0, 0] };
 * const hint = underBlockHint('The method belongs under "request:".', { text, lines }, keyNode);
 * if (hint !== 'The method belongs under "request:": indent "method" 6 spaces, like "url" on line 3.') {
 *   throw new Error(hint);
 * }
 * ```
 */
export function underBlockHint(
  hint: string | undefined,
  source: Source,
  keyNode: unknown,
): string | undefined {
  const parent = hint === undefined ? undefined : /belongs? under "([\w-]+):"/.exec(hint)?.[1];
  const at = (keyNode as { range?: number[] } | null)?.range?.[0];
  if (!parent || at === undefined) return hint;
  const { text } = source;
  const lineStart = text.lastIndexOf("\n", at - 1) + 1;
  const end = text.indexOf("\n", at);
  const key = keyOf(text.slice(lineStart, end < 0 ? text.length : end));
  if (!key || key[2]) return hint;
  const child = blockChild(text, lineStart, column(key), parent);
  if (!child) return hint;
  return `${hint!.replace(/\.$/, "")}: indent "${key[3]}" ${
    spaces(child.column)
  }, like "${child.name}" on line ${source.lines.linePos(child.offset).line}.`;
}

/**
 * The first-level key of the `parent:` block that ends right above the
 * line at `lineStart`, both at column `at`; `undefined` when the key above
 * at that column is another one.
 */
function blockChild(text: string, lineStart: number, at: number, parent: string) {
  let child: { column: number; name: string; offset: number } | undefined;
  let end = lineStart - 1;
  for (let n = 0; end > 0 && n < LOOKBACK; n++) {
    const start = text.lastIndexOf("\n", end - 1) + 1;
    const line = text.slice(start, end);
    end = start - 1;
    if (!isContent(line)) continue;
    const m = keyOf(line);
    const indent = line.length - line.trimStart().length;
    if (indent > at && m && !m[2] && (!child || indent <= child.column)) {
      child = { column: indent, name: m[3], offset: start };
    } else if (indent <= at) {
      return indent === at && m?.[3] === parent && opensBlock(line) ? child : undefined;
    }
  }
  return undefined;
}

/**
 * Commands a Markdown page hides in an HTML comment. A page keeps an old
 * example inside `<!-- … -->`, which the rendered page never shows: read as
 * shell, it became a step of its own that no reader of the page sends (a
 * chat server's OAuth page: a second token to set, a request with
 * `X-Admin: true`). A comment that starts a line (up to three spaces first,
 * as Markdown's HTML block) outside a code fence and outside a
 * here-document is left out up to its `-->`, and so is a reStructuredText
 * comment (`..`, and the lines indented under it), which Sphinx never
 * renders either; the lines stay, blank, so every other line keeps its
 * number.
 *
 * @module
 */

import { HeredocBodies } from "./curl_heredoc_bodies.ts";

/** A comment's start, as Markdown reads an HTML block: at most three spaces first. */
const OPENS = /^ {0,3}<!--/;

/** A Markdown code fence, with or without its language. */
const FENCE = /^\s*(?:```|~~~)/;

/** `curl` where a command would start it: the line's start, or after a shell's mark. */
const RUNS_CURL = /(?:^\s*|[:;|&($]\s*)curl\s/i;

/** The text without its hidden comments, and the lines in them that ran curl. */
export interface Unhidden {
  /** The text, each comment's lines blank. */
  text: string;
  /** The 1-based line of each curl command a comment held. */
  hidden: number[];
}

/**
 * The text with each HTML comment that starts a line left out (its lines
 * blank), and where the curl commands it held stood; text with no such
 * comment is returned as it is.
 *
 * @example
 * ```ts
 * import { withoutHtmlComments } from "./curl_hidden.ts";
 * const page = "curl http://a.test/a\n<!--\ncurl http://a.test/old\n-->\n";
 * const { text, hidden } = withoutHtmlComments(page);
 * if (text !== "curl http://a.test/a\n\n\n\n" || hidden[0] !== 3) throw new Error(text);
 * if (withoutHtmlComments("~~~\n<!-- x -->\n~~~").text !== "~~~\n<!-- x -->\n~~~") throw new Error();
 * ```
 */
export function withoutHtmlComments(text: string): Unhidden {
  if (!text.includes("<!--") && !/^\s*\.\.(?:\s|$)/m.test(text)) return { text, hidden: [] };
  const lines = text.split("\n");
  const hidden: number[] = [];
  let fenced = false;
  const bodies = new HeredocBodies();
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (bodies.holds(line)) continue;
    if (FENCE.test(line)) fenced = !fenced;
    if (!fenced && RST_COMMENT.test(line)) i = commentBlock(lines, i, hidden);
    else if (fenced || !OPENS.test(line)) bodies.note(line);
    else i = blanked(lines, i, hidden);
  }
  return { text: lines.join("\n"), hidden };
}

/**
 * Blanks the comment opening at line `from` up to its `-->` (what follows
 * it on that line stays), noting each line that ran curl; the comment's last
 * line. A comment never closed is left as written: it hides nothing.
 */
function blanked(lines: string[], from: number, hidden: number[]): number {
  const start = lines[from].indexOf("<!--");
  for (let i = from; i < lines.length; i++) {
    const close = lines[i].indexOf("-->", i === from ? start + 4 : 0);
    if (close === -1) continue;
    for (let j = from; j <= i; j++) {
      const inside = j === from ? lines[j].slice(start + 4) : lines[j];
      const text = j === i ? inside.slice(0, close - (j === from ? start + 4 : 0)) : inside;
      if (text.split("\n").some((l) => RUNS_CURL.test(l.replace(/^\s*\$\s+/, "")))) {
        hidden.push(j + 1);
      }
      const rest = j === i ? lines[j].slice(close + 3) : "";
      lines[j] = rest.trim() ? " ".repeat(close + 3) + rest : "";
    }
    return i;
  }
  return from;
}

/**
 * A reStructuredText comment's start: `..` alone or before text that is no directive
 * (`.. note::`), target (`.. _label:`), footnote (`.. [1]`) or substitution (`.. |x|`). A
 * directive's name is a reference name, words joined by single `-`, `_`, `.`, `:` or `+`: a
 * Sphinx domain's (`.. http:get:: /metrics`, `.. py:function::`) is one, and an API page's
 * example requests sit under it.
 */
const RST_COMMENT = /^(\s*)\.\.(?:\s*$|\s+(?!\w+(?:[-_.:+]\w+)*::)[^\s_[|])/;

/**
 * Blanks the rST comment at line `from` and the lines indented under it (blank ones
 * between), noting each line that ran curl; the comment's last line.
 */
function commentBlock(lines: string[], from: number, hidden: number[]): number {
  const indent = /^\s*/.exec(lines[from])![0].length;
  let last = from;
  for (let i = from + 1; i < lines.length; i++) {
    if (lines[i].trim() === "") continue;
    if (/^\s*/.exec(lines[i])![0].length <= indent) break;
    last = i;
  }
  for (let j = from; j <= last; j++) {
    if (RUNS_CURL.test(lines[j].replace(/^\s*(?:\.\.)?\s*(?:\$\s+)?/, ""))) hidden.push(j + 1);
    lines[j] = "";
  }
  return last;
}

/**
 * The summary's note for each curl command a comment held.
 *
 * @example
 * ```ts
 * import { hiddenNotes } from "./curl_hidden.ts";
 * if (!hiddenNotes([3])[0].includes("line 3")) throw new Error();
 * ```
 */
export function hiddenNotes(hidden: readonly number[]): string[] {
  return hidden.map((line) =>
    `A curl command inside a comment (<!-- … --> or rST's .., line ${line}) is hidden on the rendered page: left out.`
  );
}

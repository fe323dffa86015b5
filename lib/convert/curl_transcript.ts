/**
 * A terminal transcript in `convert curl`'s input: commands after a `$ `
 * prompt with what they printed pasted under them, as READMEs, issues and
 * chat messages show a session. The printed answer is text, not shell: an
 * apostrophe in it (httpbin's `HTTP/1.0 418 I'M A TEAPOT`, `don't`) would
 * open a quote the splitter never sees closed, and the whole text was
 * refused, or worse, closed by a quote of a later command, which was
 * swallowed. In a text with a `$ ` prompt, a line after a command that has
 * ended (its quotes closed, no `\` at its end, its here-documents read), up
 * to the next blank line or `$ ` line, is what the command printed, unless
 * it starts with `curl` (a command written without its prompt). After a
 * blank line the text is shell again: docs mix prompted commands with plain
 * ones and comments (`echo '{…}' | curl -d @- …`).
 *
 * @module
 */
import { headEnd } from "./curl_answer_head.ts";
import { isCurlSentence } from "./curl_heading.ts";
import { parseAnnotatedJson } from "./annotated_json.ts";
import { isCurlOption, runsCurl } from "./curl_lost_continuation.ts";

/** Where a prompted command stands while its lines are read. */
interface Reading {
  /** The quote open at the end of the last line: `'`, `"` or "". */
  quote: string;
  /** Whether the last line ended with a `\` outside single quotes. */
  continued: boolean;
  /** The delimiters of here-documents still to be read, in order, with their line's indent. */
  heredocs: { word: string; tabs: boolean; indent: string }[];
}

/** A here-document's opener (`<<EOF`, `<<-'EOF'`, `<< "EOF"`), never a here-string `<<<`. */
const HEREDOC = /(?<!<)<<(-?)\s*(['"]?)([A-Za-z_][A-Za-z0-9_]*)\2/g;

/** Whether a line is a `$ ` prompt's (leading blanks allowed). */
const PROMPTED = /^\s*\$ /;

/** A curl command written without a prompt, among prompted ones. */
const BARE_CURL = /^\s*curl\s/;

/**
 * Scans one line of a command outside a here-document: quotes open or
 * closed, a `\` at its end, a `#` comment, here-documents it opens.
 */
function scanLine(line: string, r: Reading): void {
  let i = 0;
  for (; i < line.length; i++) {
    const ch = line[i];
    if (r.quote === "'") {
      if (ch === "'") r.quote = "";
    } else if (ch === "\\") i++;
    else if (r.quote === '"') {
      if (ch === '"') r.quote = "";
    } else if (ch === "'" || ch === '"') r.quote = ch;
    else if (ch === "#" && (i === 0 || /\s/.test(line[i - 1]))) break;
  }
  r.continued = r.quote !== "'" && i === line.length + 1;
  if (r.quote) return;
  const indent = /^[ \t]*/.exec(line)![0];
  for (const m of line.slice(0, i).matchAll(HEREDOC)) {
    r.heredocs.push({ word: m[3], tabs: m[1] === "-", indent });
  }
}

/** Whether the command's lines go on past this one (a quote, a `\`, a here-document). */
function goesOn(r: Reading): boolean {
  return r.quote !== "" || r.continued || r.heredocs.length > 0;
}

/** Reads one line of a here-document: the delimiter's line closes it. */
function heredocLine(line: string, r: Reading): void {
  const open = r.heredocs[0];
  const bare = open.tabs ? line.replace(/^\t+/, "") : line;
  // An indented code block's delimiter keeps the block's indent (curl_heredoc.ts).
  if (bare === open.word || (open.indent !== "" && bare === open.indent + open.word)) {
    r.heredocs.shift();
  }
}

/**
 * The text with each line a prompted command printed made blank (line
 * numbers stay those of the input), or `undefined` when the text has no
 * `$ ` prompt: then it is no transcript and every line is shell.
 *
 * @example
 * ```ts
 * import { withoutPrinted } from "./curl_transcript.ts";
 * const text = "$ curl -I http://a.test/status/418\nHTTP/1.0 418 I'M A TEAPOT\n$ curl http://a.test/ip\n";
 * if (withoutPrinted(text) !== "$ curl -I http://a.test/status/418\n\n$ curl http://a.test/ip\n") throw new Error();
 * if (withoutPrinted("curl http://a.test/ip\n") !== undefined) throw new Error();
 * ```
 */
export function withoutPrinted(text: string): string | undefined {
  const lines = text.split("\n");
  if (!lines.some((line) => PROMPTED.test(line))) return undefined;
  const r: Reading = { quote: "", continued: false, heredocs: [] };
  // Right under a prompted command that has ended, lines are printed; else shell as written.
  let printed = false;
  // Whether the line above was a curl command's own (no printed line yet under it).
  let underCurl = false;
  return lines.map((line, i) => {
    if (goesOn(r)) {
      if (r.quote || r.continued) scanLine(line, r);
      else heredocLine(line, r);
      return line;
    }
    if (PROMPTED.test(line) || (printed && BARE_CURL.test(line))) {
      printed = true;
      underCurl = runsCurl(line.trim().split(/\s+/));
      scanLine(line, r);
      return line;
    }
    // An option line right under a curl command is that command's, its `\` lost (curl_lost_continuation.ts).
    if (printed && underCurl && isLostOption(line)) {
      scanLine(line, r);
      return line;
    }
    underCurl = false;
    if (line.trim() === "") printed = false;
    if (!printed) {
      // A sentence's apostrophe ("Let's log in:") opens no quote: withoutProse blanks it later.
      if (!isProse(line, lines[i - 1])) scanLine(line, r);
      return line;
    }
    return "";
  }).join("\n");
}

/** A line that starts with one of curl's options, never a number curl printed (`-1`). */
function isLostOption(line: string): boolean {
  const first = line.trim().split(/\s+/)[0] ?? "";
  return !/^-[\d.]+$/.test(first) && isCurlOption(first);
}

/** The last line of a JSON object or list that starts at line `at`, if the lines there are one. */
function jsonEnd(lines: string[], at: number): number | undefined {
  let text = "";
  for (let i = at; i < lines.length && i < at + 400; i++) {
    text += `${lines[i]}\n`;
    // Annotated as docs print it (`// 2`, `...`, a comma left): annotated_json.ts.
    if (parseAnnotatedJson(text)) return i;
  }
  return slippedEnd(lines, at);
}

/**
 * The last line of a printed answer laid out as JSON that does not parse, the docs' own slip
 * (`"link": http://…/issue/4",`, a quote left out): a `{` or `[` alone on line `at`, and the
 * first line under it at the same indent that closes it (`}`, `]`, maybe a comma), no curl run
 * between. Read as shell, the slip's lone quote swallowed the page after it; a shell's brace
 * group (`{` alone) runs a command, which a printed answer's lines never start with.
 */
function slippedEnd(lines: string[], at: number): number | undefined {
  const open = /^(\s*)([[{])\s*$/.exec(lines[at]);
  if (!open) return undefined;
  const close = new RegExp(`^${open[1]}${open[2] === "{" ? "\\}" : "\\]"},?\\s*$`);
  for (let i = at + 1; i < lines.length && i < at + 400; i++) {
    if (RUNS_CURL.test(lines[i]) || lines[i].trim() === "") return undefined;
    if (close.test(lines[i])) return i;
  }
  return undefined;
}

/**
 * The text with each JSON answer printed bare under a command made blank
 * (docs print "Response:" and the JSON, no prompt, no `#`): a JSON object
 * or list that starts a line after a command has ended, no quote open and
 * no here-document unread, and so an answer's head `curl -i` printed (its
 * status line and headers); `undefined` when there is none. A body inside
 * quotes or a here-document is the command's own.
 *
 * @example
 * ```ts
 * import { withoutJsonAnswers } from "./curl_transcript.ts";
 * const text = 'curl http://a.test/me\n{\n  "name": "don\'t"\n}\ncurl http://a.test/b\n';
 * if (withoutJsonAnswers(text) !== "curl http://a.test/me\n\n\n\ncurl http://a.test/b\n") throw new Error();
 * if (withoutJsonAnswers("curl http://a.test/ -d '\n{}\n'\n") !== undefined) throw new Error();
 * ```
 */
export function withoutJsonAnswers(text: string): string | undefined {
  const lines = text.split("\n");
  const r: Reading = { quote: "", continued: false, heredocs: [] };
  let found = false;
  for (let i = 0; i < lines.length; i++) {
    if (goesOn(r)) {
      if (r.quote || r.continued) scanLine(lines[i], r);
      else heredocLine(lines[i], r);
      continue;
    }
    // A `curl -i` answer's head (`HTTP/1.1 200 OK`, `Token: …`) is printed too: curl_answer_head.ts.
    const end = /^\s*[[{]/.test(lines[i]) ? jsonEnd(lines, i) : headEnd(lines, i);
    if (end === undefined) {
      if (!isProse(lines[i], lines[i - 1])) scanLine(lines[i], r);
      continue;
    }
    for (let k = i; k <= end; k++) lines[k] = "";
    found = true;
    i = end;
  }
  return found ? lines.join("\n") : undefined;
}

/**
 * A sentence's start: a capitalised word (`Note`, `It's`, `I'm`, a name such as `AddUnique`),
 * maybe as inline code and after a list's mark (`*`, `-`, `2.`) or Markdown's inline marks (a
 * link's `[`, emphasis's `*`, `_`, `**`, a `(`, a quotation mark: "[Weavework's aggregation"),
 * then a space, a comma or the end of a short sentence ("Updated! Now let's check…"), the
 * emphasis closed before or after its colon (`**Note**:`, `**Explanation:**`). No
 * command starts so: the shell's `[` test is followed by a space.
 */
const SENTENCE =
  /^\s*(?:(?:[-*+]|\d+[.)])\s+)?[[*_("“]*`?[A-Z][A-Za-z]*(?:['’][a-z]+)?`?[*_]*[,:!?.]?[*_]*\s/;

/**
 * A Markdown list item's start: its mark (`-`, `*`, `+`, `1.`, `2)`) and a space, or
 * reStructuredText's explicit markup (`.. note:: …`, `.. versionadded:: 3.1 …`, a comment's
 * `..`), which Sphinx pages write between their commands. No program is called `-`, `1.` or
 * `..` (a folder), and an option has no space after its dash, so a line so started is markup.
 */
const LIST_ITEM = /^\s*(?:[-*+]|\d+[.)]|\.\.)\s+\S/;

/**
 * A table's row: a grid table's or a Markdown pipe table's (`| text | c'est la vie |`), or an rST
 * line block's `| …`. No shell line starts with `|`: a pipe needs a command before it, and a
 * pipeline carried on the next line ends the line above with `|` (that line goes on).
 */
const TABLE_ROW = /^\s*\|\s/;

/**
 * An apostrophe inside a word (`isn't`, `it's`, `Let's`) or ending a plural possessive before
 * a blank or a mark (`agents' configs`, `users'.`): a sentence's, never a quote of shell's.
 */
const IN_WORD = /[A-Za-z]['’][A-Za-z]|[a-z]s['’](?=[\s.,;:!?)]|$)/;

/** `curl` where a command would start it: the line's start, or after `:`, `;`, `|`, `&`, `(`, `$`. */
const RUNS_CURL = /(?:^\s*|[:;|&($]\s*)curl\s/i;

/** What a shell line holds and a sentence does not: `=`, `|`, `<`, `>`, `$`, `\`, braces. */
const SHELL_MARK = /[=|<>$\\{}]/;

/**
 * Whether a line outside any command is a sentence: a capitalised start or a list item's mark and
 * `isn't`, curl named in it but never run ("We're using the curl utility again:"); one about curl ("curl doesn't
 * follow redirects."): curl_heading.ts; or a sentence wrapped onto it from the line `above`
 * (a source wrapped at 80 columns: "…as well as a\nreference. If you can't…"), where neither
 * line holds a shell mark or runs curl.
 */
function isProse(line: string, above?: string): boolean {
  // curl's own error line (`curl: (7) Couldn't connect to server`): printed, never typed.
  if (strayQuote(line, above) || /^\s*curl: \(\d+\) /.test(line)) return true;
  // A saved page's paragraph is read without its tags, as the browser shows it.
  const text = untagged(line);
  if (!IN_WORD.test(text)) return false;
  // A list item however it starts ("- `422 …` when an expression can't be executed").
  const opens = SENTENCE.test(text) || LIST_ITEM.test(text) || TABLE_ROW.test(text) ||
    CODE_LEAD.test(text) || lowerSentence(text);
  if ((opens && !RUNS_CURL.test(text)) || isCurlSentence(text)) return true;
  return wrapped(text) && above !== undefined && above.trim() !== "" && wrapped(untagged(above));
}

/**
 * The tags of HTML prose (`<p>`, `</p>`, `<a href="…">`, `<li>`, `<em>`…) left out: a page saved
 * as HTML starts its paragraphs with them ("<p>Let's test it out:</p>"). Only tags of prose, by
 * name: a command's `<token>` or `<<EOF` is no tag.
 */
const PROSE_TAG =
  /<\/?(?:p|a|li|ul|ol|div|span|em|strong|b|i|u|code|kbd|br|h[1-6]|dd|dt|td|th|blockquote|small|section)\b[^<>]*>/gi;

/** The line without the tags of HTML prose. */
const untagged = (line: string) => line.replace(PROSE_TAG, "");

/**
 * A sentence whose first three words are lower case, as when it starts with a name written so
 * ("stubber can fake binary protocols too, … we're telling …:"), or a wrapped paragraph's line:
 * a sentence's words only (no shell mark, no option, no URL; a command holds one).
 */
function lowerSentence(line: string): boolean {
  return /^\s*[a-z]+\s+[a-z]+\s+[a-z]+\b/.test(line) && wrapped(line) &&
    !/(?:^|\s)--?[A-Za-z]|:\/\//.test(line);
}

/** A sentence's first two words: a capitalised one (maybe after a list's mark), then a lower-case one. */
const WORDS = /^\s*(?:[-*+]\s+)?[A-Z][A-Za-z]*[,:]?\s+[a-z]+\b/;

/**
 * A wrapped sentence's later line: a lower-case word first (a contraction too, "isn't"), then a
 * space, code or the end.
 */
const LOWER_WORD = /^\s*[a-z]+(?:['’][a-z]+)?(?:\s|`|$)/;

/**
 * A sentence that opens with inline code naming what it is about, maybe after a list's mark, then
 * words: an API page's ``` ``PUT /config``: It's also possible… ``` (rST) or `` `PUT /config`: Here's
 * how… `` (Markdown). A code span holding a blank (an endpoint's method and path) fits no
 * {@linkcode SENTENCE}; the shell would run the span's output, so no command starts so.
 */
const CODE_LEAD = /^\s*(?:(?:[-*+]|\d+[.)])\s+)?(`{1,2})[^`\s][^`]*\1[,.:;]?\s+[A-Za-z]+\b/;

/**
 * A sentence's line that starts with inline code and goes on in words: rST's ``` ``If-Match`` header
 * or an ``"@etag`` property ```, Markdown's `` `ids` is a list ``, wrapped there from the line
 * above. No command starts with a code span: the shell would run the span's output.
 */
const CODE_WORD = /^\s*(`{1,2})[^`\s][^`]*\1[,.:;]?\s+[a-z]+\b/;

/**
 * Whether a line is a sentence that quotes code with a quote it never closes: a reference
 * explains a pasted query ("The request includes two queries: … FROM \"mymeas\"'."), and
 * read as shell that `'` opened a quote swallowing the commands after it. Words first (or,
 * under a sentence's line `above`, a lower-case word: the sentence wrapped, "label
 * `instance=\"…`."), no option and no URL (a command would hold one), curl never run, and its
 * quotes left open.
 */
function strayQuote(line: string, above?: string): boolean {
  const words = WORDS.test(line) || CODE_WORD.test(line) ||
    (LOWER_WORD.test(line) && above !== undefined && /[a-z]/.test(above) && wrapped(above));
  if (!words || RUNS_CURL.test(line) || /(?:^|\s)--?[A-Za-z]|:\/\//.test(line)) {
    return false;
  }
  const r: Reading = { quote: "", continued: false, heredocs: [] };
  scanLine(line, r);
  return r.quote !== "";
}

/**
 * Whether a line may be a wrapped sentence's: words, no shell mark, no curl run. A Markdown
 * fence (```` ```console ````, `~~~`) is none: the line under it starts a code block.
 */
function wrapped(line: string): boolean {
  return /^\s*(?:[A-Za-z0-9(*"“`]|[-/]\w)/.test(line) && !SHELL_MARK.test(line) &&
    !RUNS_CURL.test(line) && !FENCE.test(line);
}

/** A Markdown code fence, with or without its language. */
const FENCE = /^\s*(?:```|~~~)/;

/**
 * The text with each line of prose made blank: a README's sentence pasted
 * between commands ("the password isn't used") is no shell, and its
 * apostrophe opened a quote that refused the text or swallowed the next
 * command. A line outside any command (no quote open, no `\`, no
 * here-document unread) that starts with a capitalised word, holds an
 * apostrophe inside a word and names no `curl` is a sentence; `undefined`
 * when there is none.
 *
 * @example
 * ```ts
 * import { withoutProse } from "./curl_transcript.ts";
 * const text = "curl http://a.test/a\nIt isn't paged:\ncurl http://a.test/b\n";
 * if (withoutProse(text) !== "curl http://a.test/a\n\ncurl http://a.test/b\n") throw new Error();
 * if (withoutProse("curl -d @- http://a.test/ <<EOF\nIt's mine\nEOF\n") !== undefined) throw new Error();
 * ```
 */
export function withoutProse(text: string): string | undefined {
  const lines = text.split("\n");
  // The line above as written: one blanked as prose still carries a sentence on.
  const original = [...lines];
  const r: Reading = { quote: "", continued: false, heredocs: [] };
  let found = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (goesOn(r)) {
      if (r.quote || r.continued) scanLine(line, r);
      else heredocLine(line, r);
    } else if (isProse(line, original[i - 1])) {
      lines[i] = "";
      found = true;
    } else scanLine(line, r);
  }
  return found ? lines.join("\n") : undefined;
}

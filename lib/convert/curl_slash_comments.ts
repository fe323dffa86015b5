/**
 * `//` comments in a curl text. Pages whose examples sit in JavaScript
 * blocks label them `// Request` and `// Result`, and READMEs write a
 * command's result after it as `// => {…}`. The shell has no `//` comment:
 * `//` was a program that is no curl (and an apostrophe after it, "// the
 * note's id", opened a quote that refused the text), and on a command's
 * line `// => {…}` became three more of curl's words, the `{…}` another URL.
 * A line starting with `//` outside a command, and `//` after a blank on a
 * curl command's line outside its quotes, start a comment now: written `# `
 * (same length, so lines and columns stay the input's), read as `#` is, an
 * answer after `=>` included (curl_answers.ts). A `//` inside a command's
 * quotes or a here-document is the command's own (a body's text, a URL's
 * `http://`).
 *
 * @module
 */

import { HeredocBodies } from "./curl_heredoc_bodies.ts";

/** A line that starts a curl command, maybe after a `$ ` prompt. */
const CURL_LINE = /^\s*(?:\$\s+)?curl\s/;

/** A `//` comment line (not `///`, which no docs use for a note). */
const SLASH_LINE = /^(\s*)\/\/(?!\/)/;

/**
 * Scans one line of a command from quote state `quote`: the index of a `//`
 * comment's start outside quotes (after a blank), or -1; and the quote open at
 * its end. A `#` comment ends the scan.
 */
function scan(line: string, quote: string): { at: number; quote: string } {
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (quote === "'") {
      if (ch === "'") quote = "";
    } else if (ch === "\\") i++;
    else if (quote === '"') {
      if (ch === '"') quote = "";
    } else if (ch === "'" || ch === '"') quote = ch;
    else if (/\s/.test(line[i - 1] ?? " ")) {
      if (ch === "#") break;
      if (line.startsWith("//", i)) return { at: i, quote };
    }
  }
  return { at: -1, quote };
}

/**
 * The text with each `//` comment written `# ` (same length): a line that
 * starts with `//` outside a command, and a `//` after a blank on a curl
 * command's lines outside its quotes.
 *
 * @example
 * ```ts
 * import { slashComments } from "./curl_slash_comments.ts";
 * const text = '// Request\ncurl http://a.test/x -d \'{"u": "http://b"}\' // => {"id": 1}\n';
 * const want = '#  Request\ncurl http://a.test/x -d \'{"u": "http://b"}\' #  => {"id": 1}\n';
 * if (slashComments(text) !== want) throw new Error(slashComments(text));
 * if (slashComments("curl -d 'a\n// kept\n' http://a.test/\n").includes("#")) throw new Error();
 * if (slashComments("curl -d @- http://a.test/ <<EOF\n// kept\nEOF\n").includes("#")) throw new Error();
 * ```
 */
export function slashComments(text: string): string {
  let quote = "";
  let inCommand = false;
  const bodies = new HeredocBodies(); // a here-document's lines are its text
  return text.split("\n").map((line) => {
    if (bodies.holds(line)) return line;
    bodies.note(line);
    if (!inCommand) {
      if (SLASH_LINE.test(line)) return line.replace(SLASH_LINE, "$1# ");
      if (!CURL_LINE.test(line)) return line;
      quote = "";
    }
    const read = scan(line, quote);
    quote = read.quote;
    const continued = quote === "" && read.at < 0 && /(?:^|[^\\])(?:\\\\)*\\$/.test(line);
    inCommand = quote !== "" || continued;
    return read.at < 0 ? line : `${line.slice(0, read.at)}# ${line.slice(read.at + 2)}`;
  }).join("\n");
}

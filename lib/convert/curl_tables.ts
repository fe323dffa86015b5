/**
 * A Markdown table is prose, with or without its outer pipes. API reference
 * pages document each call's parameters and errors in GitHub tables, often
 * written without the leading `|` (` 404      | repository with such name
 * doesn't exist`), which no earlier rule knew: read as shell, the apostrophe
 * opened a quote that the next command's body closed (words of its JSON became
 * URLs, or the page was refused), and an errors table's "400 | creation
 * failed" was read as the status of the example under it, whose pasted answer
 * is the thing created.
 *
 * A table is its delimiter row (cells of dashes, colons for alignment,
 * separated by `|`: `---|---`, `| :-- | --: |`), the header row right above it
 * and the rows under it that hold a `|`, up to a blank line, each indented less
 * than a code block's four spaces and outside a fenced block. A shell pipeline
 * has no delimiter row, and a database's printed table (`----+----`) none with
 * a `|`. A row that runs curl is kept, as a list item that does is.
 *
 * @module
 */

/** A delimiter row: dashes (maybe with alignment colons) in at least two cells split by `|`. */
const DELIMITER = /^ {0,3}\|?\s*:?-{3,}:?\s*(?:\|\s*:?-{3,}:?\s*)+\|?\s*$/;

/** A row of a table: fewer than four spaces first, a `|` in it. */
const ROW = /^ {0,3}\S.*\|/;

/** `curl` run by the row: at its start, or after `|`, `;`, `&`, `(`, `$(`, a backtick. */
const RUNS_CURL = /(?:^\s*|[;|&(`]\s*|\$\(\s*)curl\s/i;

/** A Markdown fence's mark: three or more backticks or tildes. */
const FENCE = /^\s*(`{3,}|~{3,})/;

/** The lines (0-based) inside fenced code blocks, fences included. */
function fenced(lines: readonly string[]): boolean[] {
  let open: string | undefined;
  return lines.map((line) => {
    const mark = FENCE.exec(line)?.[1];
    if (mark !== undefined && (open === undefined || mark.startsWith(open[0]))) {
      open = open === undefined ? mark : undefined;
      return true;
    }
    return open !== undefined;
  });
}

/**
 * The text with each Markdown table's lines made blank (a row that runs curl kept), line for
 * line, so every later line keeps its number.
 *
 * @example
 * ```ts
 * import { withoutTables } from "./curl_tables.ts";
 * const text = " Code | Description\n-----|-----\n 404  | it doesn't exist\n\ncurl http://a.test/\n";
 * if (withoutTables(text) !== "\n\n\n\ncurl http://a.test/\n") throw new Error();
 * const piped = "echo 'x' | curl -d @- http://a.test/\n";
 * if (withoutTables(piped) !== piped) throw new Error();
 * ```
 */
export function withoutTables(text: string): string {
  if (!text.includes("|")) return text;
  const lines = text.split("\n");
  const code = fenced(lines);
  let found = false;
  for (let i = 1; i < lines.length; i++) {
    if (code[i] || code[i - 1] || !DELIMITER.test(lines[i]) || !ROW.test(lines[i - 1])) continue;
    let end = i + 1;
    while (end < lines.length && !code[end] && ROW.test(lines[end])) end++;
    for (let k = i - 1; k < end; k++) {
      if (!RUNS_CURL.test(lines[k])) lines[k] = "";
    }
    found = true;
    i = end - 1;
  }
  return found ? lines.join("\n") : text;
}

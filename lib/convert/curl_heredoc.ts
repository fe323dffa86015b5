/**
 * Here-documents for the bash splitter of `convert curl` (`curl_shell.ts`):
 * the lines after a command that opened one with `<<DELIMITER`, read into
 * the command's standard input, so that a body written in the text is the
 * body and its lines are no commands of their own.
 *
 * @module
 */
/** The command a here-document is for (a `ShellCommand` of curl_shell.ts). */
interface Command {
  notes: string[];
  stdin?: string;
}

/** Where the splitter is in the text (its `Cursor`). */
interface Lines {
  readonly done: boolean;
  readonly line: number;
  restOfLine(): string;
}

/**
 * A here-document whose lines are still to be read: its command, its
 * delimiter, how to read it, and the line it was opened on.
 *
 * @example
 * ```ts
 * import type { Heredoc } from "./curl_heredoc.ts";
 * const doc: Heredoc = { command: { notes: [] }, delimiter: "EOF", tabs: true, expand: false, line: 1 };
 * if (!doc.tabs) throw new Error();
 * ```
 */
export interface Heredoc {
  command: Command;
  delimiter: string;
  /** `<<-`: leading tabs are removed from each line and from the end line. */
  tabs: boolean;
  /** An unquoted delimiter: `$NAME` and `\` escapes in the lines are read as bash reads them. */
  expand: boolean;
  line: number;
  /**
   * The blanks before the line that opened it: docs indent a code block (Markdown's four
   * spaces), its delimiter line too, which then ends it, that indent taken off every line.
   */
  indent?: string;
}

/**
 * Reads the lines of each here-document opened on the line just ended, in
 * order, into its command's `stdin`: up to its delimiter line (leading tabs
 * removed with `<<-`; or the delimiter after the opening line's own indent,
 * an indented code block's, then taken off each line), or, left open, to the
 * end of the text with a note.
 * An unquoted delimiter's lines go through `expand`, as bash expands them.
 *
 * @example
 * ```ts
 * import { Cursor, type ShellCommand } from "./curl_shell.ts";
 * import { readHeredocs } from "./curl_heredoc.ts";
 * const command: ShellCommand = { words: ["curl"], line: 1, column: 1, notes: [] };
 * const cur = new Cursor("{\"a\": 1}\nEOF\nnext");
 * readHeredocs(cur, [{ command, delimiter: "EOF", tabs: false, expand: false, line: 1 }], (t) => t);
 * if (command.stdin !== '{"a": 1}\n' || cur.text.slice(cur.i) !== "next") throw new Error();
 * ```
 */
export function readHeredocs(
  cur: Lines,
  heredocs: Heredoc[],
  expand: (text: string, line: number, notes: string[]) => string,
): void {
  for (const doc of heredocs) {
    const start = cur.line;
    const lines: string[] = [];
    let closed = false;
    let indented = false;
    while (!cur.done) {
      let line = cur.restOfLine();
      if (doc.tabs) line = line.replace(/^\t+/, "");
      indented = !!doc.indent && line === doc.indent + doc.delimiter;
      if (line === doc.delimiter || indented) {
        closed = true;
        break;
      }
      lines.push(line);
    }
    const body = lines.map((line) => `${indented ? unindented(line, doc.indent!) : line}\n`)
      .join("");
    if (!closed) {
      doc.command.notes.push(
        `The here-document opened at line ${doc.line} has no "${doc.delimiter}" line to end it: the rest of the input is its text, as bash reads it.`,
      );
    }
    doc.command.stdin = doc.expand ? expand(body, start, doc.command.notes) : body;
  }
}

/** A line of an indented code block without the block's indent (a shorter one, a blank line, as it is). */
function unindented(line: string, indent: string): string {
  return line.startsWith(indent) ? line.slice(indent.length) : line;
}

/**
 * The shell's second prompt (bash's PS2, `> `) in a pasted terminal session.
 * While a typed command is unfinished, its line ending with `\`, a quote
 * still open or a here-document still to end, bash prints `> ` before each
 * line the command goes on to, and a page that copies the terminal copies
 * that too: a certificate authority's API pages print
 * `$ curl -d '{"label": "primary"}' \` over `>   ${HOST}/api/v1/cfssl/info \`
 * and `>   | python -m json.tool`. Read as shell, each `>` is a redirect:
 * the URL became a file name, and the command was sent nowhere. On such
 * lines under a prompted command, when the first of them starts with `>`,
 * the `>` is the prompt and is taken off; a command with no `>` on the
 * first line it goes on to was not printed so, and a script's `\` over
 * `> out.json` (no `$ ` prompt) is a redirect still.
 *
 * @module
 */

/** A line typed after a `$ ` prompt (other prompts are `$ ` by then: curl_prompts.ts). */
const PROMPTED = /^[^\S\n]*\$[^\S\n]/;

/** bash's second prompt at a line's start, the blank after it too (its `> `); not `>>`. */
const SECOND_PROMPT = /^[^\S\n]*>(?:[^\S\n]|$)/;

/** A here-document opened on a line: `<<EOF`, `<<-'EOF'`, `<< "END"`; not `<<<` (a string). */
const HEREDOC = /^<<(?!<)-?[^\S\n]*(['"]?)([\w.-]+)\1/;

/** What a line leaves unfinished for the next one to go on with. */
interface Open {
  /** A quote still open at the line's end. */
  quote?: "'" | '"';
  /** The line ends with `\` outside single quotes. */
  joined: boolean;
  /** Delimiters of here-documents whose lines come next, in order. */
  docs: string[];
}

/**
 * The text with bash's `> ` taken off each line a `$ `-prompted command
 * goes on to, when the first such line has it (line numbers stay the
 * input's; those lines' columns move by the prompt's width).
 *
 * @example
 * ```ts
 * import { withoutContinuationPrompts } from "./curl_continuation_prompts.ts";
 * const typed = "$ curl -d 'a=1' \\\n>   http://a.test/x\n";
 * if (withoutContinuationPrompts(typed) !== "$ curl -d 'a=1' \\\n  http://a.test/x\n") throw new Error();
 * const script = "curl http://a.test/x \\\n> out.json\n";
 * if (withoutContinuationPrompts(script) !== script) throw new Error();
 * const verbose = "$ curl -v http://a.test/x\n> GET /x HTTP/1.1\n";
 * if (withoutContinuationPrompts(verbose) !== verbose) throw new Error();
 * ```
 */
export function withoutContinuationPrompts(text: string): string {
  if (!/^[^\S\n]*>/m.test(text)) return text;
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    if (PROMPTED.test(lines[i])) i = unprompted(lines, i);
  }
  return lines.join("\n");
}

/**
 * Takes the `> ` off the lines the command typed at `start` goes on to, in
 * place; the index of its last line (`start` when it was not printed so).
 */
function unprompted(lines: string[], start: number): number {
  let open = opened(lines[start], undefined);
  let i = start;
  while (unfinished(open) && i + 1 < lines.length) {
    const prompt = SECOND_PROMPT.exec(lines[i + 1]);
    // The first line has no `>`: a session printed without it. A later one: the command ended.
    if (!prompt) return i;
    i++;
    lines[i] = lines[i].slice(prompt[0].length);
    open = open.docs.length > 0 ? heredocLine(open, lines[i]) : opened(lines[i], open.quote);
  }
  return i;
}

/** Whether the command goes on to the next line. */
function unfinished(open: Open): boolean {
  return open.joined || open.quote !== undefined || open.docs.length > 0;
}

/** After one line of a here-document: its delimiter line ends it. */
function heredocLine(open: Open, line: string): Open {
  const [first, ...rest] = open.docs;
  return line.trim() === first ? { joined: false, docs: rest } : open;
}

/**
 * What a line of shell leaves open, read as bash reads quotes: `'…'` holds
 * everything, `\` escapes outside it, `#` after a blank starts a comment.
 */
function opened(line: string, quote: Open["quote"]): Open {
  const text = line.trimEnd();
  const docs: string[] = [];
  let q = quote;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (q === "'") {
      if (ch === "'") q = undefined;
    } else if (ch === "\\") {
      if (i === text.length - 1) return { quote: q, joined: true, docs };
      i++;
    } else if (q === '"') {
      if (ch === '"') q = undefined;
    } else if (ch === "'" || ch === '"') q = ch;
    else if (ch === "#" && (i === 0 || /\s/.test(text[i - 1]))) break;
    else if (ch === "<") i += heredocAt(text.slice(i), docs);
  }
  return { quote: q, joined: false, docs };
}

/** A here-document's delimiter opened at the start of `rest` into `docs`; how far to skip. */
function heredocAt(rest: string, docs: string[]): number {
  const doc = HEREDOC.exec(rest);
  if (!doc) return rest.startsWith("<<<") ? 2 : 0;
  docs.push(doc[2]);
  return doc[0].length - 1;
}

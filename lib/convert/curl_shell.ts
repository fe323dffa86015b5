/**
 * Command lines as a POSIX shell (bash) would split them into words, for
 * `convert curl`: single quotes, double quotes with their four backslash
 * escapes, `$'…'` ANSI-C quoting (Chrome's "Copy as cURL (bash)" writes it
 * for bodies with control characters), `\` line continuations, comments, and
 * commands separated by newlines, `;`, `&&`, `||` or `|`, and standard input
 * held in the text (a here-document's lines, a here-string's word: the
 * command's `stdin`, never commands of their own). Nothing is ever
 * evaluated: `$NAME` and `${NAME}` become a marker for an environment
 * variable ({@linkcode envMarker}), and a command substitution stays as text
 * with a note. One pass over the text: linear time.
 *
 * @module
 */
import { UsageError } from "../model/errors.ts";
import { ansiQuoted } from "./curl_ansi_quote.ts";
import { Cursor, quoteError } from "./curl_cursor.ts";
import { thousands } from "../_util/thousands.ts";
import { type Heredoc, readHeredocs } from "./curl_heredoc.ts";
import { keptNote, substituted } from "./curl_substituted.ts";

export { Cursor, quoteError } from "./curl_cursor.ts";

/** One command of the input: its words and where it starts. */
export interface ShellCommand {
  words: string[];
  /** 1-based line and column of its first word. */
  line: number;
  column: number;
  /** Things the splitter met that the converter should say (a command substitution). */
  notes: string[];
  /**
   * What the command reads from standard input when the text holds it: a
   * here-document's lines (`<<EOF` … `EOF`) or a here-string's word (`<<<`),
   * each with its final line break, as bash gives it.
   */
  stdin?: string;
  /** The command whose output it reads (`echo '…' | curl -d @-`), when a `|` joins them. */
  pipedFrom?: ShellCommand;
  /** A lone `&` ended it: the shell went on. */ background?: boolean;
}

/** Most bytes of curl commands `convert curl` reads. */
export const MAX_CURL_BYTES = 16 * 1024 * 1024;
/** Most commands one input may hold. */
export const MAX_CURL_COMMANDS = 10_000;

/** The names of the environment variables markers stand for, by index. */
export type EnvNames = string[];

/**
 * The text standing for `$NAME` in a word: lower-case letters and digits
 * only, so it survives URL parsing, encoding and header-name lowering unchanged; the writer turns it into the
 * flow's reference to the environment variable.
 *
 * @example
 * ```ts
 * import { envMarker, ENV_MARKER } from "./curl_shell.ts";
 * const m = envMarker(["TOKEN"], "TOKEN");
 * if (!new RegExp(ENV_MARKER.source).test(m)) throw new Error(m);
 * ```
 */
export function envMarker(names: EnvNames, name: string): string {
  let i = names.indexOf(name);
  if (i === -1) i = names.push(name) - 1;
  return `zqzenv${i}zqz`;
}

/** Matches every marker; group 1 is the index into the names. */
export const ENV_MARKER = /zqzenv(\d+)zqz/g;

/**
 * Splits bash command lines into commands of words.
 *
 * @example
 * ```ts
 * import { splitBash } from "./curl_shell.ts";
 * const [a, b] = splitBash(`curl 'https://a.test/x' \\\n  -H "A: \\"b\\"" --data-raw $'l1\\nl2'\ncurl b.test`, []);
 * if (JSON.stringify(a.words) !== JSON.stringify(["curl", "https://a.test/x", "-H", 'A: "b"', "--data-raw", "l1\nl2"])) throw new Error(JSON.stringify(a.words));
 * if (b.line !== 3 || b.words[1] !== "b.test") throw new Error();
 * ```
 */
export function splitBash(text: string, env: EnvNames): ShellCommand[] {
  // A script saved on Windows: its `\` continuations end in CRLF.
  const cur = new Cursor(text.replaceAll("\r\n", "\n"));
  const commands: ShellCommand[] = [];
  let command: ShellCommand | undefined;
  // Here-documents opened on this line: their lines follow it.
  const heredocs: Heredoc[] = [];
  const end = () => {
    if (command && command.words.length > 0) commands.push(command);
    command = undefined;
    if (commands.length > MAX_CURL_COMMANDS) throw tooMany();
  };
  // The command a `|` (or `|&`, not `||`) just ended: the next one reads its output.
  let piped: ShellCommand | undefined;
  while (!cur.done) {
    if (skipGap(cur, command)) continue;
    if (BASH_ENDS.has(cur.peek())) {
      const ended = command?.words.length ? command : undefined;
      const ch = separator(cur, ended);
      end();
      // A line break right after a `|` keeps the pipe, as in bash.
      if (ch === "|" && ended) piped = ended;
      else if (ended || ch !== "\n") piped = undefined;
      if (ch === "\n") readHeredocs(cur, heredocs.splice(0), here(env));
    } else {
      if (!command) {
        command = { words: [], line: cur.line, column: cur.column, notes: [] };
        if (piped) command.pipedFrom = piped;
        piped = undefined;
      }
      if (cur.peek() === "<" && cur.peek(1) === "<") hereRedirect(cur, command, env, heredocs);
      else command.words.push(bashWord(cur, env, command.notes));
    }
  }
  end();
  readHeredocs(cur, heredocs, here(env));
  return commands;
}

/**
 * `<<<word` (the word and a line break is the command's standard input) or
 * `<<[-]DELIMITER` (the lines after this one, up to DELIMITER, are): no word
 * of the command either way.
 */
function hereRedirect(
  cur: Cursor,
  command: ShellCommand,
  env: EnvNames,
  heredocs: Heredoc[],
): void {
  const line = cur.line;
  cur.next();
  cur.next();
  const string = cur.peek() === "<";
  const tabs = !string && cur.peek() === "-";
  if (string || tabs) cur.next();
  while (cur.peek() === " " || cur.peek() === "\t") cur.next();
  const from = cur.i;
  const word = bashWord(cur, string ? env : [], string ? command.notes : []);
  const raw = cur.text.slice(from, cur.i);
  if (raw === "") {
    command.notes.push(`The redirection at line ${line} names no word; it was ignored.`);
  } else if (string) command.stdin = `${word}\n`;
  else {
    // bash takes the delimiter as written, quotes removed, and never expands it.
    const delimiter = raw.replace(/['"\\]/g, "");
    const indent = lineIndent(cur.text, from);
    heredocs.push({ command, delimiter, tabs, expand: raw === delimiter, line, indent });
  }
}

/** The blanks that start the line holding `at`: a code block's indent, when the docs indent one. */
function lineIndent(text: string, at: number): string {
  const start = text.lastIndexOf("\n", at - 1) + 1;
  return /^[ \t]*/.exec(text.slice(start, at))![0];
}

/** How an unquoted here-document's lines are read: `expandHere` with the input's names. */
const here = (env: EnvNames) => (text: string, line: number, notes: string[]) =>
  expandHere(text, line, env, notes);

/** An unquoted here-document's text as bash expands it: `\$`, `\``, `\\`, `\` line joins, `$NAME`. */
function expandHere(text: string, line: number, env: EnvNames, notes: string[]): string {
  const cur = new Cursor(text);
  cur.line = line;
  let out = "";
  while (!cur.done) {
    const ch = cur.peek();
    if (ch === "\\" && /[$`\\\n]/.test(cur.peek(1))) {
      cur.next();
      const escaped = cur.next();
      if (escaped !== "\n") out += escaped;
    } else if (ch === "$") out += expansion(cur, env, notes, true);
    else out += cur.next();
  }
  return out;
}

/**
 * Reads the character that ends a command: `|` for a pipe (`|&` too, and
 * not the first of `||`, which is returned as `||`), else the character.
 */
function separator(cur: Cursor, ended?: ShellCommand): string {
  const ch = cur.next();
  if (ch === "&" && ended && !/[&>]/.test(cur.peek())) ended.background = true; // not `&&`, `&>`
  if (ch !== "|") return ch;
  if (cur.peek() === "|") return "||";
  if (cur.peek() === "&") cur.next();
  return ch;
}

/** The characters that end a command (`&&` and `||` are two of them: the second ends an empty one). */
const BASH_ENDS = new Set(["\n", ";", "&", "|"]);

/**
 * Reads past what lies between words: a `\` line continuation (trailing
 * blanks after it noted), blanks, a comment. Whether there was any.
 */
function skipGap(cur: Cursor, command: ShellCommand | undefined): boolean {
  const ch = cur.peek();
  if (ch === "\\" && cur.peek(1) === "\n") {
    cur.next();
    cur.next();
  } else if (ch === "\\" && blanksThenNewline(cur)) {
    command?.notes.push(
      `The blanks after the \\ at the end of line ${cur.line} are ignored: it is read as a line continuation (bash would end the command there).`,
    );
    while (cur.peek() !== "\n") cur.next();
    cur.next();
  } else if (ch === " " || ch === "\t" || ch === "\r") cur.next();
  else if (ch === "#") {
    while (!cur.done && cur.peek() !== "\n") cur.next();
  } else return false;
  return true;
}

/** The error for an input of more commands than {@linkcode MAX_CURL_COMMANDS}. */
export function tooMany(): UsageError {
  return new UsageError(
    "bad-curl",
    `The input holds more than ${thousands(MAX_CURL_COMMANDS)} commands.`,
    "Split it into several files and convert each into a flow of its own.",
  );
}

/**
 * Whether the `\` at the cursor has only blanks after it to the line's end:
 * text pasted from docs keeps trailing spaces after a continuation, which
 * bash reads as an escaped space and the end of the command.
 */
function blanksThenNewline(cur: Cursor): boolean {
  let k = 1;
  while (cur.peek(k) === " " || cur.peek(k) === "\t") k++;
  return k > 1 && cur.peek(k) === "\n";
}

/** One word: unquoted runs, quoted parts and expansions, up to a blank or an operator. */
function bashWord(cur: Cursor, env: EnvNames, notes: string[]): string {
  let word = "";
  while (!cur.done) {
    const ch = cur.peek();
    // `2>&1`, `>&2`: the `&` is the redirection's, not a command's end.
    if (ch === "&" && /[<>]$/.test(word)) {
      word += cur.next();
      continue;
    }
    if (/[ \t\r\n;&|]/.test(ch)) break;
    if (ch === "\\" && blanksThenNewline(cur)) break;
    word += wordPart(cur, env, notes);
  }
  return word;
}

/** The part of a word at the cursor: an escape, a quoted part, an expansion, or one character. */
function wordPart(cur: Cursor, env: EnvNames, notes: string[]): string {
  const ch = cur.peek();
  if (ch === "\\") {
    cur.next();
    const escaped = cur.next() ?? "";
    return escaped === "\n" ? "" : escaped;
  }
  if (ch === "'") return singleQuoted(cur);
  if (ch === '"') return doubleQuoted(cur, env, notes);
  if (ch === "$" && cur.peek(1) === "'") return ansiQuoted(cur);
  if (ch === "$") return expansion(cur, env, notes, false);
  if (ch === "`") return backticked(cur, notes, false);
  return cur.next();
}

function singleQuoted(cur: Cursor): string {
  const { line, column } = cur;
  cur.next();
  const close = cur.text.indexOf("'", cur.i);
  if (close === -1) {
    throw quoteError("Unterminated single quote", line, column, "Close the quote with '.");
  }
  let out = "";
  while (cur.i < close) out += cur.next();
  cur.next();
  return out;
}

function doubleQuoted(cur: Cursor, env: EnvNames, notes: string[]): string {
  const { line, column } = cur;
  cur.next();
  let out = "";
  for (;;) {
    if (cur.done) {
      throw quoteError("Unterminated double quote", line, column, 'Close the quote with ".');
    }
    const ch = cur.peek();
    if (ch === '"') {
      cur.next();
      return out;
    }
    if (ch === "\\" && /[$`"\\\n]/.test(cur.peek(1))) {
      cur.next();
      const escaped = cur.next();
      if (escaped !== "\n") out += escaped;
    } else if (ch === "$") out += expansion(cur, env, notes, true);
    else if (ch === "`") out += backticked(cur, notes, true);
    else out += cur.next();
  }
}

/**
 * `$NAME`, `${NAME}` → a marker; `$(…)` whose pipeline the converter can run
 * (`curl_pipeline.ts`) → its output; `$(…)` and anything else stay as text,
 * noted. `quoted`: inside double quotes or a here-document, where bash does
 * not split the output into words.
 */
function expansion(cur: Cursor, env: EnvNames, notes: string[], quoted: boolean): string {
  const rest = cur.text.slice(cur.i, cur.i + 200);
  const m = /^\$(?:([A-Za-z_][A-Za-z0-9_]*)|\{([A-Za-z_][A-Za-z0-9_]*)\})/.exec(rest);
  if (m) {
    for (let k = 0; k < m[0].length; k++) cur.next();
    return envMarker(env, m[1] ?? m[2]);
  }
  if (cur.peek(1) !== "(" && cur.peek(1) !== "{") return cur.next();
  const { line, column } = cur;
  // Whole, as bash reads it: `$(echo -n '/a b' | base64url)` is part of its word, spaces and all.
  const end = closingAt(cur.text, cur.i + 1);
  let text = "";
  if (end === undefined) text = cur.next();
  else while (cur.i <= end) text += cur.next();
  const run = end !== undefined && /^\$\((?!\()/.test(text)
    ? substituted(text.slice(2, -1), { line, column, notes, quoted }, splitAlone)
    : undefined;
  if (run !== undefined) return run;
  keptNote(text, rest, end !== undefined, { line, column }, notes);
  return text;
}

/**
 * A backtick substitution, the older spelling of `$(…)`: run as it is when
 * the converter can, else kept whole (its spaces and `|` are no word's end
 * or command's) and noted; a lone backtick is a character.
 */
function backticked(cur: Cursor, notes: string[], quoted: boolean): string {
  const { line, column } = cur;
  const close = closingTick(cur.text, cur.i);
  if (close < 0) return cur.next();
  let text = "";
  while (cur.i <= close) text += cur.next();
  const run = substituted(text.slice(1, -1), { line, column, notes, quoted }, splitAlone);
  if (run !== undefined) return run;
  keptNote(text, text, true, { line, column }, notes);
  return text;
}

/**
 * The backtick that closes the one at `at` on the same line, or -1: docs'
 * Markdown is full of backticks (inline code, a fence's three) that bash
 * never sees, and a substitution docs print spans one line; an empty one
 * (` `` `) is none either.
 */
function closingTick(text: string, at: number): number {
  if (text[at - 1] === "`" || text[at + 1] === "`") return -1;
  for (let i = at + 1; i < text.length && text[i] !== "\n"; i++) {
    if (text[i] === "\\") i++;
    else if (text[i] === "`") return text[i + 1] === "`" ? -1 : i;
  }
  return -1;
}

/** A substitution's text read on its own: a `$NAME` in it is known only when it runs. */
const splitAlone = {
  split: (inner: string) => splitBash(inner, []),
  runtime: (word: string) => new RegExp(ENV_MARKER.source).test(word),
};

/** Most characters a `$(…)` kept as text may span: no documented one comes near. */
const MAX_EXPANSION = 4096;

/**
 * Where the bracket opened at `at` (`(` of `$(…)` or `$((…))`, `{` of `${…}`) is closed, quotes
 * and nested brackets skipped over; `undefined` when nothing closes it within
 * {@linkcode MAX_EXPANSION} characters (so 10,000 unclosed `$(` cost no more than that each).
 */
function closingAt(text: string, at: number): number | undefined {
  const close: string[] = [];
  let quote = "";
  const stop = Math.min(text.length, at + MAX_EXPANSION);
  for (let i = at; i < stop; i++) {
    const ch = text[i];
    if (quote) {
      if (ch === quote) quote = "";
      else if (ch === "\\" && quote === '"') i++;
    } else if (ch === "\\") i++;
    else if (ch === "'" || ch === '"') quote = ch;
    else if (ch === "(" || ch === "{") close.push(ch === "(" ? ")" : "}");
    else if (ch === close.at(-1)) {
      close.pop();
      if (close.length === 0) return i;
    }
  }
  return undefined;
}

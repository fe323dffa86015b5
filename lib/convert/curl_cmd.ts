/**
 * Command lines as Windows `cmd.exe` and then curl.exe's C runtime would
 * split them, for `convert curl` of what a browser's "Copy as cURL (cmd)"
 * writes. Two layers, in the order Windows applies them: cmd removes its
 * `^` escapes (a `^` at a line's end joins the next line and takes its
 * first character as it is, which is how Chrome writes a newline inside a
 * value: `^` and two newlines), expands `%NAME%` and ends a command at a
 * newline or `&`, `|` outside quotes; the runtime then splits the line into
 * words at blanks outside `"…"`, where `\"` and `""` are a quote character.
 * Chrome quotes with `^"` so cmd sees no quote at all and every special
 * character is escaped. One pass over the text: linear time.
 *
 * @module
 */
import {
  Cursor,
  envMarker,
  type EnvNames,
  MAX_CURL_COMMANDS,
  quoteError,
  type ShellCommand,
  tooMany,
} from "./curl_shell.ts";

/**
 * Whether text is written for cmd rather than a POSIX shell: no line ends in
 * a backslash continuation, and a line ends in ` ^` (cmd's continuation),
 * or the text has a `^"` quote (Chrome), a `"%"` or a doubled `""` inside a
 * word of a line that runs curl (WebKit and older Firefox: an answer pasted
 * under a command, `{"Comment":""}`, says nothing of the shell), or runs
 * `curl.exe`.
 *
 * @example
 * ```ts
 * import { isCmd } from "./curl_cmd.ts";
 * if (!isCmd('curl ^"https://a.test/^" ^\n  -H ^"a: b^"')) throw new Error();
 * if (!isCmd('curl "https://a.test/" -d "{""a"":1}"')) throw new Error();
 * if (isCmd("curl 'https://a.test/' \\\n  -H 'x: ^\"'")) throw new Error();
 * ```
 */
export function isCmd(text: string): boolean {
  if (/\\\r?\n/.test(text)) return false;
  return /[ \t]\^\r?\n/.test(text) || /(^|\s)\^"/.test(text) || /(^|\s)curl\.exe\s/i.test(text) ||
    text.split("\n").some((line) => /\bcurl\s/.test(line) && /"%"|[^\s\\=]""\S/.test(line));
}

/**
 * Splits cmd command lines into commands of words.
 *
 * @example
 * ```ts
 * import { splitCmd } from "./curl_cmd.ts";
 * const [c] = splitCmd('curl ^"https://a.test/x?a=1^&b=2^" ^\n  -H ^"x: ^\\^"q^\\^"^" ^\n  --data-raw ^"l1^\n\nl2^"', []);
 * const want = ["curl", "https://a.test/x?a=1&b=2", "-H", 'x: "q"', "--data-raw", "l1\nl2"];
 * if (JSON.stringify(c.words) !== JSON.stringify(want)) throw new Error(JSON.stringify(c.words));
 * ```
 */
export function splitCmd(text: string, env: EnvNames): ShellCommand[] {
  const cur = new Cursor(text.replaceAll("\r\n", "\n"));
  const commands: ShellCommand[] = [];
  while (!cur.done) {
    const start = { line: cur.line, column: cur.column };
    const line = cmdLine(cur, env);
    const words = runtimeWords(line);
    if (words.length > 0) commands.push({ words, ...start, notes: [] });
    if (commands.length > MAX_CURL_COMMANDS) throw tooMany();
  }
  return commands;
}

/** One command's line after cmd's own pass: escapes removed, `%NAME%` expanded to markers. */
function cmdLine(cur: Cursor, env: EnvNames): string {
  let out = "";
  let quoted: { line: number; column: number } | undefined;
  const unterminated = (at: { line: number; column: number }) =>
    quoteError("Unterminated double quote", at.line, at.column, 'Close it with ".');
  while (!cur.done) {
    const ch = cur.peek();
    const variable = ch === "%" ? percentVariable(cur, env) : undefined;
    if (variable !== undefined) out += variable;
    else if (ch === "\n") {
      if (quoted) throw unterminated(quoted);
      cur.next();
      break;
    } else if (quoted || ch === '"') {
      // cmd keeps the quote characters for the runtime; inside them `^`, `&`, `|` are text.
      quoted = toggled(cur, quoted);
      out += cur.next();
    } else if (ch === "^") out += caret(cur);
    else if (operator(cur)) break;
    else out += cur.next();
  }
  if (quoted) throw unterminated(quoted);
  return out;
}

/** The quote state after the character at the cursor. */
function toggled(
  cur: Cursor,
  quoted: { line: number; column: number } | undefined,
): { line: number; column: number } | undefined {
  if (cur.peek() !== '"') return quoted;
  return quoted ? undefined : { line: cur.line, column: cur.column };
}

/** `&`, `&&`, `|`, `||` outside quotes end the command: read past them, `true`. */
function operator(cur: Cursor): boolean {
  if (cur.peek() !== "&" && cur.peek() !== "|") return false;
  while (cur.peek() === "&" || cur.peek() === "|") cur.next();
  return true;
}

/** `%NAME%`: a marker for the variable; `undefined` (nothing read) for any other `%`. */
function percentVariable(cur: Cursor, env: EnvNames): string | undefined {
  const m = /^%([A-Za-z_][A-Za-z0-9_]*)%/.exec(cur.text.slice(cur.i, cur.i + 200));
  if (!m) return undefined;
  for (let k = 0; k < m[0].length; k++) cur.next();
  return envMarker(env, m[1]);
}

/** `^x` is `x`; `^` at a line's end joins the next line, whose first character is taken as is. */
function caret(cur: Cursor): string {
  cur.next();
  if (cur.peek() === "\n") cur.next();
  return cur.done ? "" : cur.next();
}

/** The C runtime's split of a command line into words (`CommandLineToArgvW`'s rules). */
function runtimeWords(line: string): string[] {
  const words: string[] = [];
  let word = "";
  let inWord = false;
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (ch === "\\") {
      let n = 0;
      while (line[i + n] === "\\") n++;
      i += n - 1;
      inWord = true;
      if (line[i + 1] !== '"') {
        word += "\\".repeat(n);
        continue;
      }
      word += "\\".repeat(Math.floor(n / 2));
      if (n % 2 === 1) {
        word += '"';
        i++;
      }
    } else if (ch === '"') {
      inWord = true;
      if (quoted && line[i + 1] === '"') {
        word += '"';
        i++;
      } else quoted = !quoted;
    } else if ((ch === " " || ch === "\t") && !quoted) {
      if (inWord) words.push(word);
      word = "";
      inWord = false;
    } else {
      word += ch;
      inWord = true;
    }
  }
  if (inWord) words.push(word);
  return words;
}

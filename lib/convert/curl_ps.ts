/**
 * Command lines as PowerShell would split them into words, for `convert curl`
 * of `curl.exe` commands written for PowerShell (Windows' own curl, which
 * PowerShell users must call `curl.exe`: `curl` is an alias of
 * Invoke-WebRequest there): `` ` `` at a line's end continues it, `'…'` is
 * literal (`''` a quote), `"…"` expands `$env:NAME`, `$NAME` and `${NAME}`
 * and reads `` ` `` escapes (`` `" ``, `` `n ``, `` `t ``, `` `$ ``), `""` is a
 * quote inside it; commands end at a newline, `;`, `|`, `&&` or `||`; `#`
 * starts a comment and `<#…#>` a block comment. Nothing is evaluated: a
 * `$(…)` stays as text with a note.
 *
 * Then the words as `curl.exe` receives them: Windows PowerShell 5.1 passes a
 * `"` inside a word unescaped, so docs written for it escape it as `\"`
 * (`-d '{\"a\":1}'`), which curl's C runtime reads as `"`; that reading is
 * kept, and PowerShell 7.3's (`"` passed as it is) agrees with it for every
 * word that holds no `\"`. One pass over the text: linear time.
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
import { table } from "./table.ts";

/**
 * Whether text is written for PowerShell: a line continued with `` ` ``, a
 * `$env:` variable, or `curl.exe` with an argument in single quotes (cmd
 * has none).
 *
 * @example
 * ```ts
 * import { isPowerShell } from "./curl_ps.ts";
 * if (!isPowerShell('curl.exe https://a.test/ `\n  -H "a: b"')) throw new Error();
 * if (!isPowerShell("curl.exe -d '{\\\"a\\\":1}' https://a.test/")) throw new Error();
 * if (isPowerShell('curl ^"https://a.test/^"') || isPowerShell("curl 'https://a.test/' \\\n -H 'a: b'")) throw new Error();
 * ```
 */
export function isPowerShell(text: string): boolean {
  if (/\\\r?\n/.test(text) || /(^|\s)\^"/.test(text)) return false;
  return /[ \t]`[ \t]*\r?\n/.test(text) || /\$env:[A-Za-z_]/i.test(text) ||
    (/(^|\s)curl\.exe\s/i.test(text) && /(^|\s)'/.test(text));
}

/**
 * Splits PowerShell command lines into commands of words.
 *
 * @example
 * ```ts
 * import { splitPowerShell } from "./curl_ps.ts";
 * const env: string[] = [];
 * const [c] = splitPowerShell("curl.exe 'https://a.test/x' `\n  -H \"Authorization: Bearer $env:TOKEN\" -d '{\\\"a\\\":''b''}'", env);
 * const want = ["curl.exe", "https://a.test/x", "-H", "Authorization: Bearer zqzenv0zqz", "-d", '{"a":\'b\'}'];
 * if (JSON.stringify(c.words) !== JSON.stringify(want) || env[0] !== "TOKEN") throw new Error(JSON.stringify(c.words));
 * ```
 */
export function splitPowerShell(text: string, env: EnvNames): ShellCommand[] {
  const cur = new Cursor(text.replaceAll("\r\n", "\n"));
  const commands: ShellCommand[] = [];
  let command: ShellCommand | undefined;
  const end = () => {
    if (command && command.words.length > 0) {
      command.words = command.words.map((w) => w.replace(/\\"/g, '"'));
      commands.push(command);
    }
    command = undefined;
    if (commands.length > MAX_CURL_COMMANDS) throw tooMany();
  };
  while (!cur.done) {
    if (skipGap(cur)) continue;
    if (commandEnd(cur)) end();
    else {
      command ??= { words: [], line: cur.line, column: cur.column, notes: [] };
      command.words.push(psWord(cur, env, command.notes));
    }
  }
  end();
  return commands;
}

/** Whether a `` ` `` at the cursor continues the line (only blanks after it). */
function continuation(cur: Cursor): boolean {
  return /^`[ \t]*\n/.test(cur.text.slice(cur.i, cur.i + 80));
}

/** Reads past what lies between words: a `` ` `` continuation, blanks, a comment. Whether there was any. */
function skipGap(cur: Cursor): boolean {
  const ch = cur.peek();
  if (ch === "`" && continuation(cur)) {
    while (cur.peek() !== "\n") cur.next();
    cur.next();
  } else if (ch === " " || ch === "\t" || ch === "\r") cur.next();
  else if (ch === "<" && cur.peek(1) === "#") blockComment(cur);
  else if (ch === "#") {
    while (!cur.done && cur.peek() !== "\n") cur.next();
  } else return false;
  return true;
}

/** A newline, or a run of `;`, `|` (`||` too) or `&` (from `&&`), read past: whether the command ends there. */
function commandEnd(cur: Cursor): boolean {
  const ch = cur.peek();
  if (ch === "\n") {
    cur.next();
    return true;
  }
  if (ch !== ";" && ch !== "|" && !(ch === "&" && cur.peek(1) === "&")) return false;
  while (cur.peek() === ch) cur.next();
  return true;
}

/** `<#…#>`, read past. */
function blockComment(cur: Cursor): void {
  const { line, column } = cur;
  const close = cur.text.indexOf("#>", cur.i + 2);
  if (close === -1) throw quoteError("Unterminated <# comment", line, column, "Close it with #>.");
  while (cur.i < close + 2) cur.next();
}

/** `` `x `` outside a string and inside `"…"`: PowerShell's escapes. */
const TICK = table<string>({
  n: "\n",
  t: "\t",
  r: "\r",
  "0": "\0",
  a: "\x07",
  b: "\b",
  e: "\x1b",
  f: "\f",
  v: "\v",
});

/** One word: bare runs, quoted parts and variables, up to a blank or an operator. */
function psWord(cur: Cursor, env: EnvNames, notes: string[]): string {
  let word = "";
  while (!cur.done) {
    const ch = cur.peek();
    if (/[ \t\r\n;|]/.test(ch) || (ch === "&" && cur.peek(1) === "&")) break;
    if (ch === "`") {
      if (continuation(cur)) break;
      cur.next();
      const e = cur.done ? "" : cur.next();
      word += TICK[e] ?? e;
    } else if (ch === "@" && /^@['"][ \t]*\n/.test(cur.text.slice(cur.i, cur.i + 80))) {
      word += hereString(cur, env, notes);
    } else if (ch === "'") word += singleQuoted(cur);
    else if (ch === '"') word += doubleQuoted(cur, env, notes);
    else if (ch === "$") word += variable(cur, env, notes);
    else word += cur.next();
  }
  return word;
}

/**
 * `@'…'@` and `@"…"@`, PowerShell's here-strings (a body as Microsoft's docs
 * write it): the lines after the opener up to a line starting with the
 * closer, that line's newline not included; `@"` expands variables and
 * `` ` `` escapes as `"…"` does. Read as words, a `'` inside ended in an
 * "Unterminated double quote" at a later command.
 */
function hereString(cur: Cursor, env: EnvNames, notes: string[]): string {
  const { line, column } = cur;
  const quote = cur.peek(1);
  const start = cur.text.indexOf("\n", cur.i) + 1;
  const end = start - 1 + cur.text.slice(start - 1).indexOf(`\n${quote}@`);
  if (end < start - 1) {
    throw quoteError(
      "Unterminated here-string",
      line,
      column,
      `End it with a line starting ${quote}@.`,
    );
  }
  while (cur.i < start) cur.next();
  let out = "";
  while (cur.i < end) {
    const ch = cur.peek();
    if (quote === "'" || (ch !== "$" && ch !== "`")) out += cur.next();
    else if (ch === "$") out += variable(cur, env, notes);
    else {
      cur.next();
      const e = cur.i < end ? cur.next() : "";
      out += TICK[e] ?? e;
    }
  }
  while (cur.i < end + 3) cur.next();
  return out;
}

function singleQuoted(cur: Cursor): string {
  const { line, column } = cur;
  cur.next();
  let out = "";
  for (;;) {
    if (cur.done) throw quoteError("Unterminated single quote", line, column, "Close it with '.");
    const ch = cur.next();
    if (ch !== "'") out += ch;
    else if (cur.peek() === "'") out += cur.next();
    else return out;
  }
}

function doubleQuoted(cur: Cursor, env: EnvNames, notes: string[]): string {
  const { line, column } = cur;
  cur.next();
  let out = "";
  for (;;) {
    if (cur.done) throw quoteError("Unterminated double quote", line, column, 'Close it with ".');
    const ch = cur.peek();
    if (ch === '"') {
      cur.next();
      if (cur.peek() !== '"') return out;
      out += cur.next();
    } else if (ch === "`") {
      cur.next();
      const e = cur.done ? "" : cur.next();
      out += TICK[e] ?? e;
    } else if (ch === "$") out += variable(cur, env, notes);
    else out += cur.next();
  }
}

/** `$env:NAME`, `$NAME`, `${NAME}`, `${env:NAME}` → a marker; `$(…)` and a lone `$` stay as text. */
function variable(cur: Cursor, env: EnvNames, notes: string[]): string {
  const rest = cur.text.slice(cur.i, cur.i + 200);
  const m =
    /^\$(?:env:([A-Za-z_][A-Za-z0-9_]*)|\{(?:env:)?([A-Za-z_][A-Za-z0-9_]*)\}|([A-Za-z_][A-Za-z0-9_]*))/i
      .exec(rest);
  if (m) {
    for (let k = 0; k < m[0].length; k++) cur.next();
    return envMarker(env, m[1] ?? m[2] ?? m[3]);
  }
  if (cur.peek(1) === "(") {
    notes.push(
      `A PowerShell expression at line ${cur.line}, column ${cur.column} ("${
        rest.split("\n")[0].slice(0, 30)
      }") is not run; it is kept as text.`,
    );
  }
  return cur.next();
}

/**
 * Curl commands inside command substitutions. Docs print them inside
 * another command: Netdata's shell exporter is
 * `eval "$(curl -s 'http://localhost:19999/api/v1/allmetrics')"`, and a
 * login is often `TOKEN=$(curl -s … | jq -r .token)`. The shell runs the
 * substituted command first, so it is a request the text sends: its own
 * commands, in the order the shell runs them (before the command that holds
 * it). What held its output (an `eval`, an assignment, a header) gets a
 * blank in its place and, where it is a curl command itself, a note that
 * the output is not carried. A substitution of another program
 * (`$(cat token.txt)`) and arithmetic (`$((1+2))`) stay text, as before;
 * nothing in single quotes is one.
 *
 * @module
 */
import { type EnvNames, type ShellCommand, splitBash } from "./curl_shell.ts";

/** One substitution whose command is curl: its text, and where it stands in the input. */
interface Substitution {
  inner: string;
  start: number;
  end: number;
  line: number;
  column: number;
}

const CURL_FIRST = /^\s*(?:\S*[\\/])?curl(?:\.exe)?(?:\s|$)/i;

/**
 * Splits bash text as `splitBash` does, with the curl commands of its
 * command substitutions as commands of their own, each before the command
 * that holds it.
 *
 * @example
 * ```ts
 * import { splitWithSubstitutions } from "./curl_subst.ts";
 * const commands = splitWithSubstitutions(`eval "$(curl -s 'http://a.test/m')"`, []);
 * if (commands.map((c) => c.words[0]).join() !== "curl,eval") throw new Error();
 * ```
 */
export function splitWithSubstitutions(text: string, env: EnvNames): ShellCommand[] {
  const subs = curlSubstitutions(text);
  if (subs.length === 0) return splitBash(text, env);
  let blanked = "";
  let at = 0;
  for (const s of subs) {
    blanked += text.slice(at, s.start) + text.slice(s.start, s.end).replace(/[^\n]/g, " ");
    at = s.end;
  }
  const commands = splitBash(blanked + text.slice(at), env);
  for (const s of subs) {
    const inner = splitWithSubstitutions(s.inner, env);
    for (const c of inner) {
      if (c.line === 1) c.column = s.column;
      c.line += s.line - 1;
    }
    const holder = commands.findLastIndex((c) =>
      c.line < s.line || (c.line === s.line && c.column <= s.column)
    );
    if (holder >= 0) {
      commands[holder].notes.push(
        `The output of the curl command at line ${s.line} is not carried: it is sent as a step of its own, before this one.`,
      );
    }
    commands.splice(Math.max(holder, 0), 0, ...inner);
  }
  return commands;
}

/** The substitutions of `text` (outside single quotes and comments) whose command is curl. */
function curlSubstitutions(text: string): Substitution[] {
  const found: Substitution[] = [];
  let quote = "";
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === "\\" && quote !== "'") {
      i++;
    } else if (quote === "'" || (quote === "" && ch === "'")) {
      if (ch === "'") quote = quote ? "" : "'";
    } else if (ch === '"') {
      quote = quote ? "" : '"';
    } else if (quote === "" && ch === "#" && /(^|\s)$/.test(text.slice(Math.max(i - 1, 0), i))) {
      const eol = text.indexOf("\n", i);
      i = eol < 0 ? text.length : eol;
    } else if ((ch === "$" && text[i + 1] === "(" && text[i + 2] !== "(") || ch === "`") {
      const end = ch === "`" ? closingBacktick(text, i + 1) : closingParen(text, i + 2);
      if (end < 0) continue;
      const inner = text.slice(i + (ch === "`" ? 1 : 2), end);
      if (CURL_FIRST.test(inner)) found.push({ inner, start: i, end: end + 1, ...where(text, i) });
      i = end;
    }
  }
  return found;
}

/** The index of the `)` that closes a `$(` whose text starts at `from`, or -1. */
function closingParen(text: string, from: number): number {
  let depth = 1;
  let quote = "";
  for (let i = from; i < text.length; i++) {
    const ch = text[i];
    if (ch === "\\" && quote !== "'") i++;
    else if (quote) {
      if (ch === quote) quote = "";
    } else if (ch === "'" || ch === '"') quote = ch;
    else if (ch === "(") depth++;
    else if (ch === ")" && --depth === 0) return i;
  }
  return -1;
}

/** The index of the backtick that closes one whose text starts at `from`, or -1. */
function closingBacktick(text: string, from: number): number {
  for (let i = from; i < text.length; i++) {
    if (text[i] === "\\") i++;
    else if (text[i] === "`") return i;
  }
  return -1;
}

/** The 1-based line and column of `index` in `text`. */
function where(text: string, index: number): { line: number; column: number } {
  const before = text.slice(0, index);
  const line = before.split("\n").length;
  return { line, column: index - before.lastIndexOf("\n") };
}

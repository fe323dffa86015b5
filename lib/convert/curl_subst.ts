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
import { noteAssignment } from "./curl_outputs.ts";
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
      noteAssignment(commands[holder], inner);
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
  const state = { quote: "" };
  for (let i = 0; i < text.length; i++) {
    const past = quotedOrComment(text, i, state);
    if (past >= 0) {
      i = past;
      continue;
    }
    const sub = substitutionAt(text, i);
    if (!sub) continue;
    // A bare `curl` in a sentence is markdown's inline code ("The `curl` command below"), no command.
    const inline = sub.inner.trim() === "curl";
    if (CURL_FIRST.test(sub.inner) && !inline) found.push({ ...sub, ...where(text, i) });
    i = sub.end - 1;
  }
  return found;
}

/**
 * Where the scan goes on after what `text[i]` starts when it holds no
 * substitution (an escape, a quote, text in single quotes, a comment),
 * updating `state`; -1 when it may start one.
 */
function quotedOrComment(text: string, i: number, state: { quote: string }): number {
  const ch = text[i];
  if (ch === "\\" && state.quote !== "'") return i + 1;
  if (state.quote === "'" || (state.quote === "" && ch === "'")) {
    if (ch === "'") state.quote = state.quote ? "" : "'";
    return i;
  }
  if (ch === '"') {
    state.quote = state.quote ? "" : '"';
    return i;
  }
  if (state.quote === "" && ch === "#" && (i === 0 || /\s/.test(text[i - 1]))) {
    const eol = text.indexOf("\n", i);
    return eol < 0 ? text.length : eol;
  }
  return -1;
}

/** The `$(…)` or backtick substitution that starts at `i`, if one does (not `$((`). */
function substitutionAt(
  text: string,
  i: number,
): { inner: string; start: number; end: number } | undefined {
  const tick = text[i] === "`";
  if (!tick && !(text[i] === "$" && text[i + 1] === "(" && text[i + 2] !== "(")) return undefined;
  const close = tick ? closingBacktick(text, i + 1) : closingParen(text, i + 2);
  if (close < 0) return undefined;
  return { inner: text.slice(i + (tick ? 1 : 2), close), start: i, end: close + 1 };
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

/**
 * The index of the backtick that closes one whose text starts at `from`, or -1: on the same
 * line and never one of a fence's or an empty pair's, as the shell reader reads them
 * (curl_shell.ts). Across lines, a stray backtick in one block (an API page's
 * `-H "accept: application/json"\``) paired with the next block's and every later pair
 * shifted, until a page's last inline command was swallowed unsaid.
 */
function closingBacktick(text: string, from: number): number {
  if (text[from - 2] === "`" || text[from] === "`") return -1;
  for (let i = from; i < text.length && text[i] !== "\n"; i++) {
    if (text[i] === "\\") i++;
    else if (text[i] === "`") return text[i + 1] === "`" ? -1 : i;
  }
  return -1;
}

/** The 1-based line and column of `index` in `text`. */
function where(text: string, index: number): { line: number; column: number } {
  const before = text.slice(0, index);
  const line = before.split("\n").length;
  return { line, column: index - before.lastIndexOf("\n") };
}

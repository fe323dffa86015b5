/**
 * The credentials a flow file writes in secret places, read from its text
 * line by line, so that a YAML slip's message never prints one again: it
 * quotes the line and its hint the line as it should be, and a file YAML
 * cannot read has no values to tell credentials by. A
 * place is secret as for a request (docs/secrets.md): a header such as
 * `authorization`, `cookie` or `x-api-key`, or a key whose name looks secret
 * (`password`, `client_secret`); `Bearer` and the like, expressions and a
 * cookie's name are not the credential and stay readable.
 *
 * @module
 */
import type { Problem } from "../model/errors.ts";
import { isSecretHeader, isSecretKey } from "../secrets/mod.ts";
import { isOrdinaryWord } from "../secrets/public_parts.ts";
import { maskedExcerpt } from "./masked_excerpt.ts";

/** A `key: value` pair starting a line (or a list item), or inside `{ }`; the key may be quoted. */
const PAIR = /(?:^[ \t]*(?:-[ \t]+)?|[{,][ \t]*)(["']?)([\w.-]+)\1[ \t]*:[ \t]+/g;
/** An auth scheme before a credential: protocol text. */
const SCHEME = /^(?:Bearer|Basic|Token|Digest|Bot|ApiKey|Key|OAuth|JWT)\s+/i;
/** What splits a value into pieces: spaces, cookie pairs, `user:password`, quotes. */
const PIECES = /[\s;,:"'{}]+/;
/**
 * An expression, `${…}`, holding no brace: a run of `${${${…` (the fuzzer's 112 KB line) is then
 * linear to scan, where `[^}]*` read to the line's end from every `${` (5 s).
 */
const EXPRESSION = /\$\{[^{}\n]*\}/g;
/** A capture's source (`token: $.json.token`): no credential. */
const JSONPATH = /^\$[.[]/;
/** Shorter pieces are not masked, as for any secret (docs/secrets.md). */
const MIN_PIECE = 4;
/** Keys in secret places whose values are the flow's own words (`auth: none`). */
const STRUCTURE_KEYS = new Set(["auth"]);

/**
 * The credential pieces `text` writes in secret places, longest first.
 *
 * @example
 * ```ts
 * import { writtenCredentials } from "./written_credentials.ts";
 * const text = "headers:\n  authorization: Bearer tok_9f8e7d: x\n  x-api-key: ${ENV.KEY}\n";
 * const found = writtenCredentials(text);
 * if (found.join() !== "tok_9f8e7d") throw new Error(found.join());
 * ```
 */
export function writtenCredentials(text: string): string[] {
  const keys = new Set<string>();
  const values: string[] = [];
  // An expression is no credential: what it names (`${ENV.TOKEN}`) stays readable; taken out
  // first, its `}` does not end a value inside `{ }`.
  const lines = text.replace(EXPRESSION, " ").split("\n");
  // Lines a value goes on over may be prose (a folded description): their ordinary words are not
  // taken, or a word such as `more` masked flowrun's own sentence (`1 more on this line`).
  const continued: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = readLine(lines[i], keys, values);
    // The lines a secret place's value goes on over are read with it, never as pairs: each line
    // is read once, by the loop or here.
    if (open) i = readContinued(lines, i, open, continued);
  }
  const pieces = new Set<string>();
  for (const [list, words] of [[values, true], [continued, false]] as const) {
    for (const credential of list.flatMap(credentialPieces)) {
      if (!keys.has(credential) && (words || !isOrdinaryWord(credential))) pieces.add(credential);
    }
  }
  return [...pieces].sort((a, b) => b.length - a.length);
}

/** The pieces of a value that may be a credential: not a scheme, a cookie's name or a JSONPath. */
function credentialPieces(value: string): string[] {
  const found: string[] = [];
  for (const piece of value.trim().replace(/^["']/, "").replace(SCHEME, "").split(PIECES)) {
    // A cookie's name is not its value; a key the file writes (`password: password`) stays one.
    const credential = piece.includes("=") ? piece.slice(piece.indexOf("=") + 1) : piece;
    if (credential.length < MIN_PIECE || JSONPATH.test(credential)) continue;
    // A scheme alone on its line (`authorization: >-`, then `Bearer`, then the token).
    if (!SCHEME.test(`${credential} `)) found.push(credential);
  }
  return found;
}

/** A block pair whose value starts on the next lines: nothing after the `:` but a comment. */
const EMPTY_PAIR = /^([ \t]*)(?:-[ \t]+)?(["']?)([\w.-]+)\2[ \t]*:[ \t]*(?:#.*)?$/;
/** A line that starts a pair, a list item or a comment: no value going on. */
const OWN_LINE = /^[ \t]*(?:["']?[\w.-]+["']?[ \t]*:(?:[ \t]|$)|-(?:[ \t]|$)|#)/;
/** A block scalar's indicator (`|`, `>-`, `|2+`): its lines are the value's text, pairs or not. */
const BLOCK = /^[|>][0-9+-]*[ \t]*(?:#.*)?$/;

/** A secret place's value that may go on over the next lines: its key's indent, and whether it has begun. */
interface Open {
  indent: number;
  begun: boolean;
}

/**
 * Reads the pairs of `line` (their keys into `keys`, a secret place's value into `values`); the
 * secret place a block pair at the line's start opens for the next lines, if any.
 */
function readLine(line: string, keys: Set<string>, values: string[]): Open | undefined {
  const empty = EMPTY_PAIR.exec(line);
  if (empty) {
    keys.add(empty[3]);
    return isSecretPlace(empty[3]) ? { indent: empty[1].length, begun: false } : undefined;
  }
  const brace = line.indexOf("{");
  let open: Open | undefined;
  for (const match of line.matchAll(PAIR)) {
    const key = match[2];
    keys.add(key);
    if (!isSecretPlace(key)) continue;
    const start = match.index + match[0].length;
    // A map is no credential (`session: {header: set-cookie}` captures one): its pairs are read.
    if (line.startsWith("{", start)) continue;
    // Inside `{ }` (or after a `,`) a value ends at the next `,` or `}`; a comment ends any.
    // Read by index, never by copying the rest of the line: a long line of many pairs stays
    // linear (the fuzzer's 114 KB line took 5 s).
    const inFlow = /^[{,]/.test(match[0]) || (brace !== -1 && brace <= match.index);
    const value = line.slice(start, valueEnd(line, start, inFlow));
    if (!BLOCK.test(value)) values.push(value);
    if (!inFlow) open = { indent: line.length - line.trimStart().length, begun: true };
  }
  return open;
}

/** Whether a key names a secret place (not `auth:`, which holds the flow's own words). */
function isSecretPlace(key: string): boolean {
  return !STRUCTURE_KEYS.has(key) && (isSecretHeader(key) || isSecretKey(key));
}

/**
 * Reads into `values` the lines after `at` that `open`'s value goes on over: deeper ones (any,
 * once the value has begun on its key's line or is a block; else those that start no pair), and
 * one at the key's indent or deeper that starts no pair, list item or comment (a token a slip left
 * at the key's indent). Returns the last line read.
 */
function readContinued(lines: readonly string[], at: number, open: Open, values: string[]): number {
  let last = at;
  for (let i = at + 1; i < lines.length; i++) {
    const body = lines[i].trimStart();
    if (body === "") continue;
    const indent = lines[i].length - body.length;
    const own = OWN_LINE.test(body);
    if (!(indent > open.indent && (open.begun || !own)) && (indent < open.indent || own)) break;
    values.push(body.slice(0, MAX_VALUE));
    last = i;
  }
  return last;
}

/** The longest value read for credentials: a credential is a line's word, not a document. */
const MAX_VALUE = 4096;

/** Where a value starting at `start` ends: a comment, in `{ }` also a `,` or `}`; bounded. */
function valueEnd(line: string, start: number, inFlow: boolean): number {
  const end = inFlow ? /[,}]|\s#/g : /\s#/g;
  end.lastIndex = start;
  const found = end.exec(line);
  return Math.min(found ? found.index : line.length, start + MAX_VALUE);
}

/**
 * `problem` with every one of `credentials` masked as `***` in its message,
 * hint and quoted line; the caret stays on its column.
 *
 * @example
 * ```ts
 * import { maskCredentials } from "./written_credentials.ts";
 * const problem = {
 *   code: "yaml-syntax", message: "m", file: "f", line: 1, column: 16, length: 1,
 *   excerpt: "authorization: Bearer tok_9f8e7d: x", hint: 'Quote it: authorization: "Bearer tok_9f8e7d: x"',
 * };
 * maskCredentials(problem, ["tok_9f8e7d"]);
 * if (problem.hint !== 'Quote it: authorization: "Bearer ***: x"') throw new Error(problem.hint);
 * if (problem.excerpt !== "authorization: Bearer ***: x") throw new Error(problem.excerpt);
 * ```
 */
export function maskCredentials(problem: Problem, credentials: readonly string[]): void {
  if (credentials.length === 0) return;
  const mask = (text: string) => credentials.reduce((t, c) => t.replaceAll(c, "***"), text);
  problem.message = mask(problem.message);
  if (problem.hint !== undefined) problem.hint = mask(problem.hint);
  if (problem.excerpt === undefined) return;
  // The caret stays on its place in the shorter line: the line is then shown as a window
  // starting that much later (with a leading "…").
  const masked = maskedExcerpt(problem, mask);
  problem.excerpt = masked.excerpt;
  if (masked.excerptStart !== undefined) problem.excerptStart = masked.excerptStart;
}

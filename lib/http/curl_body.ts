/**
 * A request body as curl arguments that send exactly its bytes: a body that
 * reads as one line of text goes into `--data-raw '…'`; any other (line
 * breaks, tabs, control or bidirectional characters, bytes that are not
 * UTF-8, NUL, a multipart body) is written by POSIX `printf` with escapes
 * into `curl --data-binary @-`. A line break can only reach a shell word as
 * itself, which every console and report shows escaped (`\n`), so the line a
 * person copies would send a backslash and an `n`; `$'…'` (bash, zsh) is
 * not read by dash, Debian's `sh`, and no argument can hold a NUL byte.
 *
 * @module
 */
import { MASK } from "../secrets/mod.ts";
import { escapeRegExp } from "../_util/regex_escape.ts";

/** A part of a multipart body as it was sent: a text field, or a file. */
export type SentPart =
  | { name: string; value: string; raw?: true }
  | { name: string; filename: string; type: string; bytes: Uint8Array };

/** Text every console and report shows escaped: controls (a tab too) and invisible direction marks. */
// deno-lint-ignore no-control-regex -- matching control characters is the point.
const UNSHOWN = /[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

/** A name `"$NAME"` expands in every POSIX shell (not `my-token`: that is `$my`, then `-token`). */
const SHELL_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Plain text, or the variable a secret is in. */
type Piece = { text: string } | { name: string };

/** How secrets and masking apply to text: secret values → variable names, and the masker. */
export interface Secrets {
  names: ReadonlyMap<string, string>;
  mask: (text: string) => string;
}

/**
 * A body's curl arguments: `pipe` (a `printf` command to put before
 * `| curl`) when the body is written that way, the words that send it, and
 * the content type the runtime sends with it when the flow sets none
 * (`undefined`: none needed; `""` curl's own must be left out).
 *
 * @example
 * ```ts
 * import { bodyArgs } from "./curl_body.ts";
 * const secrets = { names: new Map(), mask: (t: string) => t };
 * const line = bodyArgs(["a\nb 50%"], secrets);
 * if (line.pipe !== `printf 'a\\nb 50%%'` || line.words.join(" ") !== "--data-binary @-") throw new Error(line.pipe);
 * if (bodyArgs(["it's"], secrets).words[1] !== `'it'\\''s'`) throw new Error();
 * if (bodyArgs(["-a\tb"], secrets).pipe !== `printf '\\055a\\tb'`) throw new Error();
 * ```
 */
export function bodyArgs(
  chunks: readonly (string | Uint8Array)[],
  secrets: Secrets,
): { pipe?: string; words: string[] } {
  const body = asText(chunks);
  if (body.length === 1 && typeof body[0] === "string" && !UNSHOWN.test(body[0])) {
    return { words: ["--data-raw", quoted(pieces(body[0], secrets))] };
  }
  const args: string[] = [];
  let format = "";
  for (const chunk of body) {
    if (typeof chunk !== "string") {
      format += printfBytes(chunk);
      continue;
    }
    for (const piece of pieces(chunk, secrets)) {
      if ("text" in piece) format += printfText(piece.text);
      else {
        format += "%s";
        args.push(`"$${piece.name}"`);
      }
    }
  }
  // A format that starts with `-` reads as an option to printf (dash refuses it): escape it.
  if (format.startsWith("-")) format = `\\055${format.slice(1)}`;
  const pipe = ["printf", shellQuote(format), ...args].join(" ");
  return { pipe, words: ["--data-binary", "@-"] };
}

/**
 * The body as text where its bytes are UTF-8, adjacent texts joined; bytes
 * that are not UTF-8 stay bytes.
 */
function asText(chunks: readonly (string | Uint8Array)[]): (string | Uint8Array)[] {
  const out: (string | Uint8Array)[] = [];
  for (const chunk of chunks) {
    let piece: string | Uint8Array = chunk;
    if (typeof chunk !== "string") {
      try {
        piece = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(chunk);
      } catch {
        piece = chunk;
      }
    }
    const last = out.length - 1;
    if (typeof piece === "string" && typeof out[last] === "string") out[last] += piece;
    else out.push(piece);
  }
  return out.length === 0 ? [""] : out;
}

/**
 * Text split at each secret the run knows by name (longest first, so a
 * secret that holds another is replaced whole); a secret whose variable a
 * shell cannot expand is masked, and the plain text is masked by `mask`.
 */
function pieces(text: string, { names, mask }: Secrets): Piece[] {
  const secrets = [...names.keys()].filter((v) => v.length > 0 && text.includes(v))
    .sort((a, b) => b.length - a.length);
  if (secrets.length === 0) return [{ text: mask(text) }];
  const pattern = new RegExp(
    secrets.map(escapeRegExp).join("|"),
    "g",
  );
  const out: Piece[] = [];
  let plain = "";
  let at = 0;
  for (const match of text.matchAll(pattern)) {
    plain += text.slice(at, match.index);
    at = match.index + match[0].length;
    const name = names.get(match[0])!;
    if (!SHELL_NAME.test(name)) {
      plain += MASK;
      continue;
    }
    if (plain !== "") out.push({ text: mask(plain) });
    plain = "";
    out.push({ name });
  }
  plain += text.slice(at);
  if (plain !== "") out.push({ text: mask(plain) });
  return out;
}

/**
 * Pieces as one shell word: text single-quoted, each secret as `"$NAME"`.
 *
 * @example
 * ```ts
 * import { quoted } from "./curl_body.ts";
 * if (quoted([{ text: "Bearer " }, { name: "TOKEN" }]) !== `'Bearer '"$TOKEN"`) throw new Error();
 * if (quoted([]) !== "''") throw new Error();
 * ```
 */
export function quoted(parts: readonly Piece[]): string {
  const word = parts.map((p) => "text" in p ? shellQuote(p.text) : `"$${p.name}"`).join("");
  return word === "" ? "''" : word;
}

/**
 * Text split at the secrets `secrets` knows, then quoted (see
 * {@linkcode quoted}).
 *
 * @example
 * ```ts
 * import { secretWord } from "./curl_body.ts";
 * const word = secretWord("a s3cr3t", { names: new Map([["s3cr3t", "S"]]), mask: (t) => t });
 * if (word !== `'a '"$S"`) throw new Error(word);
 * ```
 */
export function secretWord(text: string, secrets: Secrets): string {
  return quoted(pieces(text, secrets));
}

/**
 * A word single-quoted for a POSIX shell, whatever it holds: each `'` becomes
 * `'\\''` (close the quotes, an escaped quote, reopen them).
 *
 * @example
 * ```ts
 * import { shellQuote } from "./curl_body.ts";
 * if (shellQuote("it's $HOME") !== `'it'\\''s $HOME'`) throw new Error(shellQuote("it's $HOME"));
 * if (shellQuote("") !== "''") throw new Error();
 * ```
 */
export function shellQuote(word: string): string {
  return `'${word.replaceAll("'", "'\\''")}'`;
}

/** The escapes POSIX `printf` reads in its format for the common controls. */
const NAMED: Record<string, string> = { "\n": "\\n", "\t": "\\t", "\r": "\\r" };

/** Text as a `printf` format that prints it: `\` and `%` doubled, what is not shown as octal bytes. */
function printfText(text: string): string {
  let out = "";
  for (const ch of text) {
    if (ch === "\\" || ch === "%") out += ch + ch;
    else if (NAMED[ch]) out += NAMED[ch];
    else if (UNSHOWN.test(ch)) out += printfBytes(new TextEncoder().encode(ch));
    else out += ch;
  }
  return out;
}

/** Bytes as a `printf` format: printable ASCII as it is, others as three-digit octal escapes. */
function printfBytes(bytes: Uint8Array): string {
  let out = "";
  for (const byte of bytes) {
    const ch = String.fromCharCode(byte);
    if (ch === "\\" || ch === "%") out += ch + ch;
    else if (NAMED[ch]) out += NAMED[ch];
    else if (byte >= 0x20 && byte < 0x7f) out += ch;
    else out += `\\${byte.toString(8).padStart(3, "0")}`;
  }
  return out;
}

/**
 * Reading a `WWW-Authenticate` header (RFC 9110 §11.6.1) into its
 * challenges. One header may hold several (`Digest …, Basic …`), and the
 * runtime joins repeated headers with `", "`, so challenges and their
 * parameters are told apart by shape: `token=` is a parameter of the
 * challenge before it, a token followed by anything else starts a new one.
 * Quoted strings keep their commas, and `\"` inside them is a quote.
 *
 * @module
 */
import { tell, type Told, told } from "../model/told.ts";

/**
 * One challenge: its scheme as written, its parameters by lower-cased name
 * (values unquoted), or the token68 a scheme like `Negotiate` carries.
 *
 * @example
 * ```ts
 * import type { AuthChallenge } from "./auth_challenge.ts";
 * const c: AuthChallenge = { scheme: "Digest", params: new Map([["realm", "r"]]) };
 * if (c.params.get("realm") !== "r") throw new Error();
 * ```
 */
export interface AuthChallenge {
  /** The auth scheme, as the server spelled it. */
  scheme: string;
  /** Parameters by lower-cased name; a repeated name keeps its first value. */
  params: Map<string, string>;
  /** The token68 (`Negotiate YII…`), when the challenge has one instead of parameters. */
  token68?: string;
}

/**
 * A `WWW-Authenticate` value that does not parse: an unclosed quote, or a
 * character no challenge may hold where it stands.
 *
 * @example
 * ```ts
 * import { ChallengeSyntaxError, parseChallenges } from "./auth_challenge.ts";
 * try {
 *   parseChallenges('Digest realm="open');
 *   throw new Error("expected a syntax error");
 * } catch (error) {
 *   if (!(error instanceof ChallengeSyntaxError) || error.offset !== 18) throw error;
 *   if (error.told.values[0] !== '"Digest realm=\\"open"') throw error;
 * }
 * ```
 */
export class ChallengeSyntaxError extends Error {
  /** Where in the header value the reading stopped (0-based). */
  readonly offset: number;
  /**
   * The message as flowrun's words and what it quotes of the header, the values masked where a
   * step shows it (a short password equal to a word never masks the sentence).
   */
  readonly told: Told;
  /** `message` says what was found at `offset`, quoting the header. */
  constructor(message: string | Told, offset: number) {
    super(typeof message === "string" ? message : tell(message));
    this.name = "ChallengeSyntaxError";
    this.offset = offset;
    this.told = typeof message === "string" ? told`${message}` : message;
  }
}

/** RFC 9110 `tchar`. */
const TOKEN = /[!#$%&'*+\-.^_`|~0-9A-Za-z]+/y;
/** A token68 standing alone before a comma or the end. */
const TOKEN68 = /[A-Za-z0-9\-._~+/]+=*(?=[ \t]*(,|$))/y;
const SPACE = /[ \t]*/y;

/** The longest header value read; servers send a few hundred bytes. */
const MAX_HEADER = 16_384;

/**
 * The challenges of a `WWW-Authenticate` value, in order. Throws
 * {@linkcode ChallengeSyntaxError} on a value that does not parse.
 *
 * @example
 * ```ts
 * import { parseChallenges } from "./auth_challenge.ts";
 * const [digest, basic] = parseChallenges(
 *   'Digest realm="a, b", qop="auth,auth-int", nonce=abc, Basic realm="x \\"y\\""',
 * );
 * if (digest.scheme !== "Digest" || digest.params.get("realm") !== "a, b") throw new Error();
 * if (digest.params.get("nonce") !== "abc") throw new Error();
 * if (basic.scheme !== "Basic" || basic.params.get("realm") !== 'x "y"') throw new Error();
 * ```
 */
export function parseChallenges(header: string): AuthChallenge[] {
  // Past the cap, the text ends at the last comma before it, not inside a parameter.
  const text = header.length > MAX_HEADER
    ? header.slice(0, MAX_HEADER).replace(/,[^,]*$/, "")
    : header;
  const out: AuthChallenge[] = [];
  let at = 0;
  for (let guard = 0; guard <= text.length; guard++) {
    at = skipSeparators(text, at);
    if (at >= text.length) return out;
    const name = match(TOKEN, text, at);
    if (name === undefined) throw unexpected(text, at);
    const after = match(SPACE, text, at + name.length)!;
    const next = at + name.length + after.length;
    const current = out.at(-1);
    if (text[next] === "=" && current !== undefined && current.token68 === undefined) {
      at = readParam(text, skip(text, next + 1), name.toLowerCase(), current);
      continue;
    }
    if (text[next] === "=") throw unexpected(text, next);
    const challenge: AuthChallenge = { scheme: name, params: new Map() };
    out.push(challenge);
    at = next;
    const token68 = after.length > 0 ? match(TOKEN68, text, at) : undefined;
    if (token68 !== undefined && !/=[^=]/.test(token68)) {
      challenge.token68 = token68;
      at += token68.length;
    }
  }
  return out;
}

/** Reads a parameter's value at `at` into `challenge`; the offset after it. */
function readParam(text: string, at: number, name: string, challenge: AuthChallenge): number {
  let value: string;
  let end: number;
  if (text[at] === '"') [value, end] = quoted(text, at);
  else {
    const token = match(TOKEN, text, at);
    if (token === undefined) throw unexpected(text, at);
    [value, end] = [token, at + token.length];
  }
  if (!challenge.params.has(name)) challenge.params.set(name, value);
  end = skip(text, end);
  if (end < text.length && text[end] !== ",") throw unexpected(text, end);
  return end;
}

/** A quoted string starting at `at` (its opening quote): the value and the offset after it. */
function quoted(text: string, at: number): [string, number] {
  let value = "";
  for (let i = at + 1; i < text.length; i++) {
    const c = text[i];
    if (c === '"') return [value, i + 1];
    if (c === "\\" && i + 1 < text.length) value += text[++i];
    else value += c;
  }
  throw new ChallengeSyntaxError(
    told`The WWW-Authenticate header ${
      JSON.stringify(text.slice(0, 200))
    } has a quoted string that is never closed.`,
    text.length,
  );
}

function match(pattern: RegExp, text: string, at: number): string | undefined {
  pattern.lastIndex = at;
  return pattern.exec(text)?.[0];
}

function skip(text: string, at: number): number {
  return at + match(SPACE, text, at)!.length;
}

function skipSeparators(text: string, at: number): number {
  while (at < text.length && /[ \t,]/.test(text[at])) at++;
  return at;
}

function unexpected(text: string, at: number): ChallengeSyntaxError {
  return new ChallengeSyntaxError(
    told`The WWW-Authenticate header ${JSON.stringify(text.slice(0, 200))} has ${
      JSON.stringify(text[at])
    } at character ${at + 1}, where a challenge or a parameter should start.`,
    at,
  );
}

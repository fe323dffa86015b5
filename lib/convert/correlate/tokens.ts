/**
 * Tokens inside longer text: a `Bearer …` header, a cookie string, a URL
 * that embeds a session id. Every token a response produced is searched for
 * and replaced by its capture; the rest is escaped as literal text.
 *
 * @module
 */
import type { Producer, Step } from "../model.ts";
import { useProducer } from "./captures.ts";
import type { Correlator } from "./state.ts";
import { candidateTokens } from "./token_index.ts";
import { beforeExpression, DOLLAR_VAR } from "../dollar.ts";

/**
 * `text` with every token a response produced replaced by its capture, and
 * each of `made` (ids the browser made, `made_ids.ts`) by its template, the
 * rest escaped.
 *
 * @example
 * ```ts
 * import { withTokens } from "./tokens.ts";
 * import { emptyCorrelator } from "./state.ts";
 * const c = emptyCorrelator("a", true);
 * // deno-lint-ignore no-explicit-any
 * if (withTokens(c, "cost: $5", { uses: new Set() } as any) !== "cost: $5") throw new Error();
 * ```
 */
export function withTokens(
  c: Correlator,
  text: string,
  user: Step,
  made: readonly [string, () => string][] = [],
): string {
  let out = "";
  let rest = text;
  // What may stand in the whole text may stand in each rest of it.
  const framed = isFramed(text);
  const candidates: [string, Stand][] = framed
    ? framedCandidates(c)
    : candidateTokens(c.tokens, text).map((at) => c.tokens[at]);
  candidates.push(...made, ...c.insideText);
  for (;;) {
    const best = firstToken(candidates, rest, framed);
    if (!best) return out + c.sp.lit(rest);
    const p = best.p;
    const sent = typeof p === "string"
      ? p
      : typeof p === "function"
      ? p()
      : useProducer(c, p, user);
    out += beforeCapture(c, c.sp.lit(rest.slice(0, best.at))) + sent;
    rest = rest.slice(best.at + best.value.length);
  }
}

/** What stands in for a value: its producer, a template, or a template made when used. */
type Stand = Producer | string | (() => string);

/**
 * What may stand in a framed body: the long tokens, then the long values
 * already sent otherwise elsewhere (an id the client made, one var a run with
 * two recordings), each as the template written there.
 */
function framedCandidates(c: Correlator): [string, Stand][] {
  const long = (value: string) => value.length >= FRAMED_MIN;
  return [
    ...c.tokens.filter(([value, p]) => p.secret || long(value)),
    ...[...c.generated].filter(([value]) => long(value)),
  ];
}

/**
 * Literal text a capture follows: a `$` at its end is taken from the var
 * (`dollar.ts`), since `$` then `${…}` reads as the escaped text `${…}` (a
 * protobuf prefixes a 36-byte id with `$`).
 */
function beforeCapture(c: Correlator, text: string): string {
  const safe = beforeExpression(text);
  if (safe !== text && !c.vars.some(([name]) => name === DOLLAR_VAR)) {
    c.vars.unshift([DOLLAR_VAR, "$"]);
  }
  return safe;
}

/** The token that starts first in `text` (the first produced, on a tie). */
function firstToken(
  tokens: [string, Stand][],
  text: string,
  framed: boolean,
): { at: number; value: string; p: Stand } | undefined {
  let best: { at: number; value: string; p: Stand } | undefined;
  for (const [value, p] of tokens) {
    const secret = typeof p === "object" && p.secret;
    const at = secret || framed ? text.indexOf(value) : wholeAt(text, value);
    if (at !== -1 && (!best || at < best.at)) best = { at, value, p };
  }
  return best;
}

/**
 * The shortest value searched for anywhere in a framed body: long enough
 * (a UUID is 36) that finding it inside another value by chance is no risk.
 */
const FRAMED_MIN = 16;

/**
 * Whether `text` is a binary framing (protobuf, MessagePack, a zip) decoded
 * as text: it holds control characters no text format uses. There a value
 * stands between length prefixes and tags, bytes that may read as letters or
 * digits (a 36-byte string is prefixed `$`, field 6 is tagged `2`), so
 * `wholeAt`'s rule does not hold: a long value is found wherever it is.
 */
function isFramed(text: string): boolean {
  // deno-lint-ignore no-control-regex -- control characters mark a binary framing.
  return /[\u0000-\u0008\u000e-\u001f]/.test(text);
}

/**
 * Where `value`, a value no secret, first stands whole in `text`: a path
 * (`/srv/box-3f9a`) as whole segments, so `/srv/box-3f9ax` is another
 * folder, not this one and an `x`; an id between characters that are no
 * letters or digits (`id:6b08…`, `a,6b08…`), so `x6b08…y` is another value.
 */
function wholeAt(text: string, value: string): number {
  const path = value.startsWith("/");
  for (let at = text.indexOf(value); at !== -1; at = text.indexOf(value, at + 1)) {
    const next = text[at + value.length];
    if (path && (next === undefined || /[/?#:;,\s"'&]/.test(next))) return at;
    if (!path && !/[A-Za-z0-9]/.test(text[at - 1] ?? "") && !/[A-Za-z0-9]/.test(next ?? "")) {
      return at;
    }
  }
  return -1;
}

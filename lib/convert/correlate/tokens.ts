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

/**
 * `text` with every token a response produced replaced by its capture, the
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
export function withTokens(c: Correlator, text: string, user: Step): string {
  let out = "";
  let rest = text;
  // What may stand in the whole text may stand in each rest of it.
  const candidates = candidateTokens(c.tokens, text).map((at) => c.tokens[at]);
  for (;;) {
    const best = firstToken(candidates, rest);
    if (!best) return out + c.sp.lit(rest);
    out += c.sp.lit(rest.slice(0, best.at)) + useProducer(c, best.p, user);
    rest = rest.slice(best.at + best.value.length);
  }
}

/** The token that starts first in `text` (the first produced, on a tie). */
function firstToken(
  tokens: [string, Producer][],
  text: string,
): { at: number; value: string; p: Producer } | undefined {
  let best: { at: number; value: string; p: Producer } | undefined;
  for (const [value, p] of tokens) {
    const at = p.secret ? text.indexOf(value) : wholeAt(text, value);
    if (at !== -1 && (!best || at < best.at)) best = { at, value, p };
  }
  return best;
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

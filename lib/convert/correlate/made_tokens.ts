/**
 * Hex tokens the page drew: a key field a page fills with random hex digits of its own
 * (Cronicle's API-keys page sends `key: <32 hex digits>`, an MD5 of the clock and a random
 * number, and the create's answer echoes it). No UUID, so the UUID rules (made_ids.ts) do not
 * see it, and under a name like `key` it was asked as a variable nobody could know. The
 * evidence, whatever the name: a whole token of 16 to 128 hex digits, letters and digits both
 * (a number or a word is no draw), that no answer held before the request that first sent it,
 * and that an answer echoes after: a draw the server then registered. Hex is a shape servers
 * issue too: one only sent again, never echoed (a session's CSRF token whose page the recording
 * did not catch), is the server's, asked of the user; one an answer handed out first (a session
 * id) is captured as any other.
 *
 * @module
 */
import type { HarRecord } from "../har_model.ts";
import { safeDecode } from "../json.ts";
import { snake } from "../names.ts";
import { freshValue } from "./ids.ts";
import { sentHeaderText } from "./made_ids.ts";
import type { Correlator } from "./state.ts";

/** A hex token inside a text, not part of a longer word. */
const HEX_IN_TEXT = /(?<![0-9a-z])[0-9a-f]{16,128}(?![0-9a-z])/gi;
/** A whole hex token with a letter and a digit. */
const HEX_TOKEN = /^(?=[0-9a-f]*[a-f])(?=[0-9a-f]*[0-9])[0-9a-f]{16,128}$/i;

/** The hex tokens in `text` that have both a letter and a digit. */
function hexTokens(text: string): string[] {
  return [...text.matchAll(HEX_IN_TEXT)].map((m) => m[0]).filter((v) => HEX_TOKEN.test(v));
}

/**
 * Notes in `c.madeTokens` the hex tokens the page drew (see the module): held by no answer
 * before their first send, then echoed by an answer.
 *
 * @example
 * ```ts
 * import { noteMadeTokens } from "./made_tokens.ts";
 * import { emptyCorrelator } from "./state.ts";
 * const c = emptyCorrelator("a", true);
 * const key = "4be1c07a9d3f58e26a0b7c1d9e8f2a35";
 * const sid = "9c2f0e7d5b3a1c8e6f4d2b0a9e7c5a3f";
 * const r = (bodyText: string, responseText: string) =>
 *   ({ url: new URL("https://a.test/api"), headers: [], bodyText, responseText });
 * // deno-lint-ignore no-explicit-any
 * noteMadeTokens(c, [r("{}", `{"sid":"${sid}"}`), r(`{"key":"${key}","sid":"${sid}"}`, `{"key":"${key}"}`)] as any);
 * if (!c.madeTokens.has(key) || c.madeTokens.has(sid)) throw new Error();
 * ```
 */
export function noteMadeTokens(c: Correlator, records: HarRecord[]): void {
  const answered = new Set<string>();
  const sent = new Set<string>();
  const answeredFirst = new Set<string>();
  const echoed = new Set<string>();
  for (const r of records) {
    const text = `${safeDecode(r.url.search)} ${sentHeaderText(r)} ${r.bodyText ?? ""}`;
    for (const v of hexTokens(text)) {
      if (!sent.has(v) && answered.has(v)) answeredFirst.add(v);
      sent.add(v);
    }
    for (const v of hexTokens(r.responseText ?? "")) {
      if (sent.has(v)) echoed.add(v);
      answered.add(v);
    }
  }
  for (const v of sent) {
    if (!answeredFirst.has(v) && echoed.has(v)) c.madeTokens.add(v);
  }
}

/**
 * Whether `value` is a hex token the page drew (noted by {@linkcode noteMadeTokens}), or one
 * made the run's own before.
 *
 * @example
 * ```ts
 * import { isMadeToken } from "./made_tokens.ts";
 * import { newCorrelator } from "./pipeline.ts";
 * const c = newCorrelator("a");
 * c.madeTokens.add("4be1c07a9d3f58e26a0b7c1d9e8f2a35");
 * if (!isMadeToken(c, "4be1c07a9d3f58e26a0b7c1d9e8f2a35") || isMadeToken(c, "4071938265019384")) {
 *   throw new Error();
 * }
 * ```
 */
export function isMadeToken(c: Correlator, value: string): boolean {
  if (c.generated.has(value)) return true;
  return HEX_TOKEN.test(value) && c.madeTokens.has(value) && !c.rules.producerFor(value);
}

/**
 * The run's own value for the page-drawn token `value` sent under `key`: a var of as many fresh
 * hex digits, drawn once per run, since the recording sends it again or an answer echoes it.
 *
 * @example
 * ```ts
 * import { freshToken } from "./made_tokens.ts";
 * import { emptyCorrelator } from "./state.ts";
 * const c = emptyCorrelator("a", true);
 * const ref = freshToken(c, "key", "4be1c07a9d3f58e26a0b7c1d9e8f2a35");
 * if (ref !== "${vars.key}" || c.vars[0][1] !== "${RANDOM.HEX_32}") throw new Error(ref);
 * if (freshToken(c, "key", "4be1c07a9d3f58e26a0b7c1d9e8f2a35") !== ref) throw new Error();
 * ```
 */
export function freshToken(c: Correlator, key: string, value: string): string {
  c.replaced.generated++;
  const known = c.generated.get(value);
  if (known) return known;
  const name = c.varNames.take(snake(key) || "token");
  c.vars.push([name, freshValue(value)]);
  const ref = c.sp.varRef(name);
  c.generated.set(value, ref);
  return ref;
}

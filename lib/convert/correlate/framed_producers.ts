/**
 * Ids and tokens handed out in framed JSON (`framed_json.ts`): an Engine.IO
 * polling answer's session id (`0{"sid":…}`, sent back in each later URL),
 * a Socket.IO acknowledgement's fields (`430[{"ticket":…}]`, received on a
 * WebSocket and sent in a later request), a guarded API's body
 * (`)]}'\n{…}`). Each is read again from the fresh answer by a regular
 * expression: over the body's text, or over a websocket step's report body,
 * where a text message is a JSON string.
 *
 * @module
 */
import { framedValues, stringKeyCounts } from "../framed_json.ts";
import { valueKey } from "../json.ts";
import type { Producer, Step } from "../model.ts";
import { isSecretShaped, looksLikeId, looksLikeToken } from "../values.ts";
import type { Correlator } from "./state.ts";

/**
 * Records the values `step`'s framed answer hands out, unless an earlier
 * answer or the client itself gave them first.
 *
 * @example
 * ```ts
 * import { produceFramed } from "./framed_producers.ts";
 * import { emptyCorrelator } from "./state.ts";
 * import { valueKey } from "../json.ts";
 * const c = emptyCorrelator("a", true);
 * const last = { mimeType: "text/plain", hasJson: false, responseText: '0{"sid":"D1BAlQB1kuHItfhKAAAA"}' };
 * // deno-lint-ignore no-explicit-any
 * produceFramed(c, { last } as any);
 * const p = c.producers.get(valueKey("D1BAlQB1kuHItfhKAAAA"));
 * if (p?.source.kind !== "regex") throw new Error();
 * ```
 */
export function produceFramed(c: Correlator, step: Step): void {
  for (const v of framedOf(step)) {
    const k = valueKey(v.value);
    if (c.producers.has(k) || c.sentSeen.has(k) || c.apiWords.has(v.value)) continue;
    if (!looksLikeId(v.key, v.value) && !isSecretShaped(v.value) && !isIssuedKey(v.value)) {
      continue;
    }
    const secret = looksLikeToken(v.key, v.value);
    const producer: Producer = {
      step,
      source: { kind: "regex", name: v.key, pattern: v.pattern },
      secret,
    };
    c.producers.set(k, producer);
    if (secret) {
      c.tokens.push([v.value, producer]);
      c.secrets.add(v.value);
    }
  }
}

/**
 * Whether a value a framed answer issued is a generated key whatever its
 * letters: an Engine.IO session id is 20 characters of base64url, and one in
 * about 30 holds no digit (`xveS-nylCjZPmF_nAAAA`), which the id shapes of
 * `values.ts` ask for. What a word never is: at least 16 characters, no
 * other than letters, digits, `-` and `_`, both cases, at least 10 distinct
 * characters, and not words run together (`someLongVariableName`,
 * `Content-Security-Policy`: each capital starts a lower-case run). The
 * answer issued it under a key it writes once; a later request sending it
 * back byte for byte is what makes it a capture.
 *
 * @example
 * ```ts
 * import { isIssuedKey } from "./framed_producers.ts";
 * if (!isIssuedKey("xveS-nylCjZPmF_nAAAA")) throw new Error();
 * for (const word of ["default", "internationalization", "someLongVariableName"]) {
 *   if (isIssuedKey(word)) throw new Error(word);
 * }
 * ```
 */
export function isIssuedKey(value: string): boolean {
  if (value.length < 16 || value.length > 200 || !/^[\w-]+$/.test(value)) return false;
  if (!/[a-z]/.test(value) || !/[A-Z]/.test(value) || new Set(value).size < 10) return false;
  return !/^[A-Za-z][a-z]+(?:[-_]?[A-Z]?[a-z]+)*$/.test(value);
}

/** The framed values of a text answer, or of a websocket step's text messages. */
function framedOf(step: Step) {
  const r = step.last;
  if (step.websocket) {
    const messages = (r.json as { messages?: unknown[] } | undefined)?.messages ?? [];
    const texts = messages.filter((m): m is string => typeof m === "string");
    // A key the messages hold twice could be read from the wrong one: counted over them all.
    const counts = stringKeyCounts(texts.join("\x1e"));
    return texts.flatMap((text) => framedValues(text, true, counts));
  }
  // A page's values are read by pages.ts, a JSON body's by its paths.
  if (r.hasJson || /html/.test(r.mimeType) || !r.responseText) return [];
  return framedValues(r.responseText, false);
}

/**
 * A token is what the server issued to this session: no later response says
 * it again. A value under a token-named key that later responses repeat (a
 * table's name in a schema listing under `foreign_key_table`, then in the
 * collections listing) is the API's own data, the same for everyone: it is
 * still captured where a request sends it, but it is not a secret, so it is
 * never masked or asked for.
 *
 * @module
 */
import type { HarRecord } from "../har_model.ts";
import type { Correlator } from "./state.ts";

/**
 * Characters of response text searched in all: a session has a handful of tokens, and a huge
 * recording is not searched past this (what is left unsearched stays a secret, the safe side).
 */
const SEARCH_BUDGET = 50_000_000;

/**
 * Drops from `c.secrets` each value a response body handed out under a
 * token-named key that the body of a later response repeats. Cookies, page
 * values and what the client sent (passwords) are left as they are.
 *
 * @example
 * ```ts
 * import { forgetRepeated } from "./repeated.ts";
 * import { emptyCorrelator } from "./state.ts";
 * const c = emptyCorrelator("a", true);
 * const first = { responseText: '{"foreign_key_table":"articles_2024"}' };
 * const later = { responseText: '{"collection":"articles_2024"}' };
 * c.secrets.add("articles_2024");
 * // deno-lint-ignore no-explicit-any
 * c.producers.set("string:articles_2024", { step: { last: first }, source: { kind: "json", path: ["foreign_key_table"] }, secret: true } as any);
 * // deno-lint-ignore no-explicit-any
 * forgetRepeated(c, [first, later] as any);
 * if (c.secrets.has("articles_2024")) throw new Error();
 * ```
 */
export function forgetRepeated(c: Correlator, ordered: readonly HarRecord[]): void {
  let budget = SEARCH_BUDGET;
  for (const value of [...c.secrets]) {
    const p = c.producers.get(`string:${value}`);
    if (!p?.secret || p.source.kind !== "json") continue;
    const quoted = JSON.stringify(value);
    for (const r of ordered.slice(ordered.indexOf(p.step.last) + 1)) {
      const text = r.responseText ?? "";
      budget -= text.length;
      if (budget < 0) return;
      if (text.includes(quoted)) {
        c.secrets.delete(value);
        break;
      }
    }
  }
}

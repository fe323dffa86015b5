/**
 * A sequence number a client echoes: a poll sends under a field the value
 * the same endpoint's previous answer gave under that field (`GET
 * /sync/maindata?rid=N`, N the `rid` of the answer before; a changes feed's
 * `since`). Such values are small numbers no shape tells from a count, so
 * provenance decides: the latest earlier answer of the same method and path
 * held the value under the field the request sends it in, and the request
 * that got that answer had sent another value there (or none), so the
 * client learned it from the answer. A page size the server echoes back
 * (`limit=10`, answered `"limit": 10`) was the client's before: kept.
 *
 * The answer to such a request is a delta: what changed since that number,
 * which a replay that changed nothing in between gets without the fields
 * the recording's had. Only its sequence field is checked.
 *
 * @module
 */
import type { HarRecord } from "../har_model.ts";
import type { Producer, Step } from "../model.ts";
import type { Correlator } from "./state.ts";

/**
 * The producer of `value` sent under `key` by `step` when it echoes the
 * previous answer of the same endpoint, else `undefined`.
 *
 * @example
 * ```ts
 * import { sequenceProducer } from "./sequences.ts";
 * import { newCorrelator } from "./pipeline.ts";
 * const c = newCorrelator("a");
 * const poll = (rid: number, next: number) => ({
 *   method: "GET", url: new URL(`http://a.test/sync?rid=${rid}`), hasJson: true, json: { rid: next },
 * });
 * // deno-lint-ignore no-explicit-any
 * c.steps.push({ first: poll(0, 1), last: poll(0, 1) } as any);
 * // deno-lint-ignore no-explicit-any
 * const step = { first: poll(1, 2) } as any;
 * if (sequenceProducer(c, "rid", "1", step)?.source.kind !== "json") throw new Error();
 * if (sequenceProducer(c, "rid", "0", step) !== undefined) throw new Error();
 * ```
 */
export function sequenceProducer(
  c: Correlator,
  key: string,
  value: string,
  step: Step,
): Producer | undefined {
  const r = step.first as HarRecord | undefined;
  if (!r?.url || !/^-?\d{1,15}$/.test(value)) return undefined;
  for (let i = c.steps.length - 1; i >= 0; i--) {
    const earlier = c.steps[i];
    const answer = earlier.last;
    if (!answer?.url || answer.method !== r.method || answer.url.pathname !== r.url.pathname) {
      continue;
    }
    const json = answer.hasJson ? answer.json : undefined;
    if (typeof json !== "object" || json === null || Array.isArray(json)) return undefined;
    const held = (json as Record<string, unknown>)[key];
    if (typeof held !== "number" || String(held) !== value) return undefined;
    if (sentUnder(earlier.first, key) === value) return undefined;
    c.deltas.set(step, key);
    return { step: earlier, source: { kind: "json", path: [key] }, secret: false };
  }
  return undefined;
}

/** What `r` sent under `key`: a query value or a urlencoded field. */
function sentUnder(r: HarRecord, key: string): string | undefined {
  const query = r.url.searchParams.get(key);
  if (query !== null) return query;
  if (!r.bodyText || !/^[^{[\s]/.test(r.bodyText)) return undefined;
  try {
    return new URLSearchParams(r.bodyText).get(key) ?? undefined;
  } catch {
    return undefined;
  }
}

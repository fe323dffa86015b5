/**
 * A read of what a write made after answering: a server that answers an
 * add at once (`Ok.`) and makes the thing a moment later, which a later
 * answer (a poll) then lists. The user's pace gave it that moment; a replay
 * reads at once and may get 404. The evidence, whatever the names: a value
 * the read sends (a path segment or query value) was in no request or answer
 * before the latest write, nor in that write's request or answer, yet in an
 * answer after it, so the server made it after answering. Such a read is
 * sent again on 404, a bounded number of times; an id the write's own answer
 * gave was made before that answer: read at once.
 *
 * @module
 */
import type { HarRecord } from "../har_model.ts";
import { safeDecode } from "../json.ts";
import type { Step } from "../model.ts";
import { looksLikeId } from "../values.ts";
import { ymap } from "../yaml_out.ts";
import type { Correlator } from "./state.ts";

/** How many times such a read is sent again: 100 ms, doubled each time, 6.3 s in all. */
const RETRIES = 6;

/**
 * Gives `step` a retry on 404 when its read names something a write made
 * after answering (see the module).
 *
 * @example
 * ```ts
 * import { retryLaterMade } from "./later_made.ts";
 * import { newCorrelator } from "./pipeline.ts";
 * const c = newCorrelator("a");
 * const r = (method: string, url: string, responseText = "") => ({ method, url: new URL(url), status: 200, responseText });
 * const steps = [
 *   r("POST", "http://a.test/add", "Ok."),
 *   r("GET", "http://a.test/sync", '{"items":{"9f3c2a7d1e":{}}}'),
 * ];
 * // deno-lint-ignore no-explicit-any
 * for (const s of steps) c.steps.push({ method: s.method, records: [s], first: s } as any);
 * const read = r("GET", "http://a.test/props?hash=9f3c2a7d1e");
 * // deno-lint-ignore no-explicit-any
 * const step = { method: "GET", first: read, records: [read] } as any;
 * retryLaterMade(c, step);
 * if (step.options === undefined) throw new Error();
 * ```
 */
export function retryLaterMade(c: Correlator, step: Step): void {
  const r = step.first;
  if (!["GET", "HEAD"].includes(r.method) || (r.status ?? 0) < 200 || (r.status ?? 0) > 299) {
    return;
  }
  if (step.options !== undefined) return;
  const write = c.steps.findLastIndex((s) => !["GET", "HEAD", "OPTIONS"].includes(s.method));
  if (write === -1) return;
  // The answers since the write are few; the steps before it grow with the
  // recording, so they are read last, newest first (a value is most often in
  // the write's own answer), and never copied: a long journey stays linear.
  const after = c.steps.slice(write + 1).flatMap((s) => s.records);
  const made = sentValues(r).some((v) =>
    after.some((e) => holds(e, v, false)) && !heldBefore(c.steps, write, v)
  );
  if (!made) return;
  step.options = ymap([[
    "retry",
    ymap([["count", RETRIES], ["on", [404]], ["delay", "100ms"]]),
  ]]);
}

/** Whether a record of `steps[0..last]` sent or answered `value`, newest first. */
function heldBefore(steps: Step[], last: number, value: string): boolean {
  for (let i = last; i >= 0; i--) {
    if (steps[i].records.some((e) => holds(e, value, true))) return true;
  }
  return false;
}

/** The id-shaped values a request's URL sends: path segments and query values. */
function sentValues(r: HarRecord): string[] {
  const segments = r.url.pathname.split("/").map(safeDecode);
  const values = [...segments, ...[...r.url.searchParams.values()]];
  return values.filter((v) => looksLikeId("", v));
}

/** Whether `e`'s answer (and, with `request`, its request) holds `value`. */
function holds(e: HarRecord, value: string, request: boolean): boolean {
  if (e.responseText?.includes(value)) return true;
  return request && (safeDecode(e.url.href).includes(value) || !!e.bodyText?.includes(value));
}

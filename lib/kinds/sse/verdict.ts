/**
 * The sentence an `sse:` step fails with when its `until` never held: the
 * path, how many events arrived, and what ended the reading.
 *
 * @module
 */

/**
 * The failed verdict of an `until` that never held.
 *
 * @example
 * ```ts
 * import { untilFailure } from "./verdict.ts";
 * const f = untilFailure("$[?@.event == 'done']", 3, "wait", 5000);
 * if (f.message !== `until "$[?@.event == 'done']" did not hold in the 3 events that arrived within 5 s.`) {
 *   throw new Error(f.message);
 * }
 * ```
 */
export function untilFailure(
  until: string,
  events: number,
  stopped: "until" | "count" | "wait" | "end" | "answer",
  waitMs: number,
  note?: string,
): { check: string; message: string } {
  const arrived = events === 1 ? "the 1 event that arrived" : `the ${events} events that arrived`;
  const why = {
    until: "",
    count: ` (the "count" limit)`,
    wait: ` within ${seconds(waitMs)}`,
    end: " before the server ended the stream",
    answer: "",
  }[stopped];
  const more = note ? ` (${note})` : "";
  return { check: "until", message: `until "${until}" did not hold in ${arrived}${why}${more}.` };
}

/** `5 s`, `1.5 s`, `250 ms`. */
function seconds(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${Math.round(ms / 100) / 10} s`;
}

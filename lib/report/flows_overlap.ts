/**
 * Whether any two flows of a run were running at the same moment. The
 * coverage lines blame an undocumented 5xx on a create on two creates that
 * overlapped, and advise `--jobs 1` to tell; that is only a cause when flows
 * ran at once. A NestJS API measured by hand (2026-11-29) answered its
 * creates 500 for want of a row no document described, and run again with
 * `--jobs 1`, as advised, it answered the same 500 and the run gave the same
 * advice. The flows' own start times and wall times say whether they
 * overlapped, whatever `--jobs` was.
 *
 * @module
 */

/** The timing of a flow run: when it started (ISO 8601) and how long it took. */
export interface FlowSpan {
  started_at: string;
  duration_ms: number;
}

/**
 * Whether two of `flows` overlapped in time. A flow whose start cannot be
 * read counts as overlapping (the advice is kept when in doubt).
 *
 * @example
 * ```ts
 * import { flowsOverlapped } from "./flows_overlap.ts";
 * const at = (ms: number, duration_ms: number) =>
 *   ({ started_at: new Date(ms).toISOString(), duration_ms });
 * if (flowsOverlapped([at(0, 100.6), at(100, 50), at(200, 10)])) throw new Error("one after another");
 * if (!flowsOverlapped([at(0, 100), at(50, 10)])) throw new Error("at once");
 * if (flowsOverlapped([at(0, 100)]) || flowsOverlapped([])) throw new Error("alone");
 * if (!flowsOverlapped([at(0, 1), { started_at: "", duration_ms: 1 }])) throw new Error("unknown");
 * ```
 */
export function flowsOverlapped(flows: readonly FlowSpan[]): boolean {
  const spans = flows.map((f) => {
    const start = Date.parse(f.started_at);
    return { start, end: start + Math.max(0, f.duration_ms) };
  });
  if (spans.some((s) => Number.isNaN(s.start))) return spans.length > 1;
  spans.sort((a, b) => a.start - b.start);
  let end = -Infinity;
  for (const span of spans) {
    // Start times are whole milliseconds and wall times are not: a flow that
    // began within a millisecond of the last one's end followed it.
    if (span.start + 1 < end) return true;
    end = Math.max(end, span.end);
  }
  return false;
}

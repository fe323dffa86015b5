/**
 * A query value that is the moment its request was made, read from the
 * page's clock: an instant query's `time=`, a range's `start=` and `end=`,
 * a cache-buster `_=` (Unix seconds, with or without a fraction, or
 * milliseconds). Replayed as recorded it asks for a moment before a fresh
 * server existed. The evidence is the recording's own clock: a value within
 * its time span (the entries' `startedDateTime`s, a minute either side) is
 * one, and so is any other of the same query within a week of the request
 * (the start of a range an hour or a day back). Each is sent as the clock
 * when the request is made, shifted by what the recording shows
 * (`${NOW.UNIX-1h}`), to the minute; a shift under a minute is none.
 *
 * @module
 */

/** The first and last moment a recording's entries were started, in ms. */
export interface Span {
  first: number;
  last: number;
}

const MINUTE = 60_000;
const WEEK = 7 * 24 * 3600_000;
const SECONDS = /^\d{10}(?:\.\d{1,6})?$/;
const MILLIS = /^\d{13}$/;

/** The instant (ms) a query value names as Unix seconds or milliseconds, else undefined. */
function instantOf(value: string): number | undefined {
  if (SECONDS.test(value)) return Number(value) * 1000;
  if (MILLIS.test(value)) return Number(value);
  return undefined;
}

/** `+1h`, `-30m`, or "" under a minute: the largest unit the shift is a whole number of. */
function shift(ms: number): string {
  const minutes = Math.round(ms / MINUTE);
  if (minutes === 0) return "";
  const sign = minutes < 0 ? "-" : "+";
  const m = Math.abs(minutes);
  for (const [unit, size] of [["w", 10080], ["d", 1440], ["h", 60]] as const) {
    if (m % size === 0) return `${sign}${m / size}${unit}`;
  }
  return `${sign}${m}m`;
}

/**
 * For each query value (by its text) of a request sent at `sent` that is a
 * time relative to that moment, the template to send instead; empty unless
 * one of them lies within the recording's `span`.
 *
 * @example
 * ```ts
 * import { sentTimes } from "./sent_times.ts";
 * const sent = Date.UTC(2026, 0, 1);
 * const query = new URLSearchParams({ start: String(sent / 1000 - 3600), end: String(sent / 1000), step: "14" });
 * const times = sentTimes(query, sent, { first: sent - 5000, last: sent + 5000 });
 * if (times.get(String(sent / 1000 - 3600)) !== "${NOW.UNIX-1h}") throw new Error("start");
 * if (times.get(String(sent / 1000)) !== "${NOW.UNIX}") throw new Error("end");
 * if (times.has("14")) throw new Error("a step is no time");
 * ```
 */
export function sentTimes(
  query: URLSearchParams,
  sent: number | undefined,
  span: Span | undefined,
): Map<string, string> {
  const times = new Map<string, string>();
  if (sent === undefined || span === undefined) return times;
  const instants = [...query.values()].map((v) => [v, instantOf(v)] as const);
  const inSpan = (t: number) => t >= span.first - MINUTE && t <= span.last + MINUTE;
  if (!instants.some(([, t]) => t !== undefined && inSpan(t))) return times;
  for (const [value, t] of instants) {
    if (t === undefined || Math.abs(t - sent) > WEEK) continue;
    const unit = MILLIS.test(value) ? "UNIX_MS" : "UNIX";
    times.set(value, `\${NOW.${unit}${shift(t - sent)}}`);
  }
  return times;
}

/**
 * The span of the records' start times, or undefined when none has one.
 *
 * @example
 * ```ts
 * import { spanOf } from "./sent_times.ts";
 * const span = spanOf([{ started: 5 }, { started: 2 }, {}]);
 * if (span?.first !== 2 || span.last !== 5) throw new Error();
 * ```
 */
export function spanOf(records: { started?: number }[]): Span | undefined {
  const starts = records.map((r) => r.started).filter((t): t is number => t !== undefined);
  if (starts.length === 0) return undefined;
  return { first: Math.min(...starts), last: Math.max(...starts) };
}

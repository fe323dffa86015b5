/**
 * A request body's times of a window, sent as the time of the request (`${NOW.…}`, read when
 * the request is made) rather than the format sample, a moment long past. A `date-time` whose
 * name says it ends something (`endsAt`, `end_time`, `validUntil`, `expiresAt`, `notAfter`) is
 * an hour after the request: a window that ended is refused as one, and an hour outlasts a run.
 * Its sibling whose name says it starts (`startsAt`, `start_time`, `validFrom`, `beginsAt`) is
 * the request's time: before the end, as a window's start must be. Alertmanager's silence took
 * both as `2024-01-01T00:00:00Z` ("start time must be before end time", 400). Only a value that
 * is the `date-time` format sample (`examples.ts`): one the document gives is kept, and so is a
 * time that is neither (any time is one). The words are a query parameter's (`run_time.ts`).
 *
 * A `date` (a day alone) that is the format sample is the day of the run (`${NOW.DATE}`), and the
 * day after when its name says it ends something: a booking API (Django REST framework,
 * drf-spectacular) refused its `booking_date` sent as `2024-01-01` ("Date is Expired!", 400), and
 * the document said nothing of it. The day of the run is neither past nor future, so a server
 * that refuses a past day (a booking, a leave) and one that refuses a future day (a birth date)
 * both take it; a fixed day only falls further behind. Decided by the format, not by a name.
 *
 * @module
 */
import type { YNode } from "../yaml_out.ts";
import { DATE_SAMPLE, DATE_TIME_SAMPLE } from "./examples.ts";

/** Words of a name that say it ends something. */
const ENDS = /\b(?:ends?|until|till|expires?|expiry|expiration|deadline|not after)\b/;

/** Words of a name that say it starts something. */
const STARTS = /\b(?:starts?|begins?|from|since|not before)\b/;

/** Words of a name, lower case and split at its case changes: `validUntil` → valid until. */
function words(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, "$1 $2").replace(/[_.-]+/g, " ").toLowerCase();
}

/**
 * The entries of a request body's object (as flow YAML) with the times of a window made the
 * run's (see the module): a format sample under a name that ends something, and one under a
 * name that starts something beside such an end; a `date` format sample is the run's day (the
 * day after under a name that ends something).
 *
 * @example
 * ```ts
 * import { windowTimes } from "./time_window.ts";
 * const at = "2024-01-01T00:00:00Z";
 * const got = windowTimes([["startsAt", at], ["endsAt", at], ["createdAt", at]]);
 * if (got[0][1] !== "${NOW.ISO}" || got[1][1] !== "${NOW.ISO+1h}" || got[2][1] !== at) {
 *   throw new Error(JSON.stringify(got));
 * }
 * if (windowTimes([["startsAt", at]])[0][1] !== at) throw new Error();
 * const days = windowTimes([["born", "2024-01-01"], ["end_date", "2024-01-01"], ["on", "2030-12-25"]]);
 * if (JSON.stringify(days.map(([, v]) => v)) !== '["${NOW.DATE}","${NOW.DATE+1d}","2030-12-25"]') {
 *   throw new Error(JSON.stringify(days));
 * }
 * ```
 */
export function windowTimes(entries: [string, YNode][]): [string, YNode][] {
  const sampled = (name: string, re: RegExp) => (value: YNode) =>
    value === DATE_TIME_SAMPLE && re.test(words(name));
  const ended = entries.some(([k, v]) => sampled(k, ENDS)(v));
  return entries.map(([k, v]): [string, YNode] => {
    if (v === DATE_SAMPLE) return [k, ENDS.test(words(k)) ? "${NOW.DATE+1d}" : "${NOW.DATE}"];
    if (sampled(k, ENDS)(v)) return [k, "${NOW.ISO+1h}"];
    return ended && sampled(k, STARTS)(v) ? [k, "${NOW.ISO}"] : [k, v];
  });
}

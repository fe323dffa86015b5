/**
 * A value two recordings of one journey sent differently because the page
 * read its clock: a compact date-time (`YYYYMMDDHHmmss`, with or without
 * milliseconds, as TiddlyWiki stamps `created` and `modified`), an ISO 8601
 * date-time, or Unix seconds or milliseconds. The flow language has no clock
 * to write a fresh one with; random hex would put letters where the server
 * keeps a date, `${RUN_ID}` in a run of its digits would break it, and a
 * variable would ask the user for what the page made. So such a value is
 * sent as recorded: a past time is still a time.
 *
 * @module
 */

/** The earliest and latest instant taken for a clock reading (2001 to 2100). */
const EARLIEST = Date.UTC(2001, 0, 1);
const LATEST = Date.UTC(2100, 0, 1);
/** Two readings of one journey's clock are at most this far apart (a year). */
const APART_MS = 366 * 24 * 3600 * 1000;

/** A compact date-time, `YYYYMMDDHHmmss` with or without milliseconds. */
const COMPACT = /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})(\d{3})?$/;
/**
 * An ISO 8601 date-time, fractions and an offset optional; a space for its `T` as RFC 3339 allows
 * and SQL writes it (a notes app's local-time header, `2026-11-30 22:08:40.331+0000`).
 */
const ISO = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?(Z|[+-]\d{2}:?\d{2})?$/;

/** The UTC instant of a date and time of day, when each field is in its range. */
function instantOfFields(fields: string[]): number | undefined {
  const [y, mo, d, h, mi, s] = fields.map(Number);
  const at = Date.UTC(y, mo - 1, d, h, mi, s);
  // Date.UTC rolls a month 13 or an hour 25 over: only a date that reads back is one.
  const back = new Date(at);
  const same = back.getUTCMonth() === mo - 1 && back.getUTCDate() === d &&
    back.getUTCHours() === h && back.getUTCMinutes() === mi && back.getUTCSeconds() === s;
  return same ? at : undefined;
}

/** The instant `value` names when it reads as a clock in one of the forms above (an offset aside). */
function instantOf(value: string): number | undefined {
  const fields = (COMPACT.exec(value) ?? ISO.exec(value))?.slice(1, 7);
  if (fields) return instantOfFields(fields);
  if (/^\d{10}$/.test(value)) return Number(value) * 1000;
  if (/^\d{13}$/.test(value)) return Number(value);
  return undefined;
}

/**
 * Whether `a` and `b`, the two recordings' values at one place, are both
 * readings of a clock in the same form, between 2001 and 2100 and at most a
 * year apart: the evidence that the page stamped the time, whatever the key.
 *
 * @example
 * ```ts
 * import { isClockReading } from "./two_recordings_time.ts";
 * if (!isClockReading("20261126023627781", "20261126023705123")) throw new Error("compact");
 * if (!isClockReading("1764124587781", "1764124625123")) throw new Error("milliseconds");
 * if (isClockReading("20261326023627781", "20261326023705123")) throw new Error("month 13");
 * if (!isClockReading("2026-11-26T02:36:27Z", "2026-11-26T02:36:59Z")) throw new Error("ISO");
 * if (isClockReading("0a1b2c3d4e", "9f8e7d6c5b")) throw new Error("hex");
 * ```
 */
export function isClockReading(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  const [x, y] = [instantOf(a), instantOf(b)];
  if (x === undefined || y === undefined) return false;
  const inRange = (t: number) => t >= EARLIEST && t < LATEST;
  return inRange(x) && inRange(y) && Math.abs(x - y) <= APART_MS;
}

/**
 * A date and time as a page writes one into text: ISO 8601 with `T` or a
 * space (SQL's spelling), seconds, fractions and an offset optional (a
 * `datetime-local` input gives minutes alone).
 */
const IN_TEXT =
  /\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2}(?!\d))?/g;

/** `stamp` (an {@linkcode IN_TEXT} match) in the form {@linkcode isClockReading} reads: `T`, seconds. */
function isoOf(stamp: string): string {
  const t = `${stamp.slice(0, 10)}T${stamp.slice(11)}`;
  // Minutes alone (`03:56`, an offset maybe after them): seconds `:00` after them.
  return t[16] === ":" ? t : `${t.slice(0, 16)}:00${t.slice(16)}`;
}

/**
 * Whether texts `a` and `b`, two recordings' values at one place, differ
 * only inside one date and time each writes at the same place (a post's
 * front matter `date: 2026-11-30T03:56:00.000+00:00`, a note's `2026-11-30
 * 03:56:12`): readings of the page's clock by {@linkcode isClockReading},
 * however many of their digits differ. A run id in the minutes would be no
 * time at all.
 *
 * @example
 * ```ts
 * import { differsInStamp } from "./two_recordings_time.ts";
 * const post = (mm: string) => `---\ndate: 2026-11-30T03:${mm}:00.000+00:00\n---\nHi.\n`;
 * if (!differsInStamp(post("56"), post("58"))) throw new Error("ISO");
 * if (!differsInStamp("At 2026-11-30 03:56:12.", "At 2026-11-30 03:58:47.")) throw new Error("SQL");
 * if (!differsInStamp("From 2026-11-30T03:56 on", "From 2026-11-30T03:58 on")) throw new Error("minutes");
 * if (differsInStamp("draft-1732100 at 2026-11-30T03:56", "draft-1732999 at 2026-11-30T03:56")) {
 *   throw new Error("outside");
 * }
 * ```
 */
export function differsInStamp(a: string, b: string): boolean {
  if (a.length !== b.length || a === b) return false;
  let start = 0;
  while (a[start] === b[start]) start++;
  let end = a.length;
  while (a[end - 1] === b[end - 1]) end--;
  for (const m of a.matchAll(IN_TEXT)) {
    const from = m.index!;
    const to = from + m[0].length;
    if (from > start || to < end) continue;
    const other = b.slice(from, to);
    return new RegExp(`^${IN_TEXT.source}$`).test(other) &&
      isClockReading(isoOf(m[0]), isoOf(other));
  }
  return false;
}

/**
 * A value two recordings of one journey sent differently, made fresh on each
 * run from its two recorded forms: a UUID, hex of one length, or text that
 * differs only in a run of letters and digits (a timestamp, a counter, a
 * random suffix).
 *
 * @module
 */
import { isUuid } from "./values.ts";
import { differsInStamp, isClockReading } from "./two_recordings_time.ts";

/**
 * Whether `value` can be made fresh on each run from its two recorded
 * forms, and how: a UUID, hex of one length, or text that differs only in a
 * run of letters and digits (a timestamp, a counter, a random suffix); never a number, date or
 * time of at most nine digits a run in both, which the user typed or picked.
 *
 * @example
 * ```ts
 * import { freshFrom } from "./fresh_from.ts";
 * if (freshFrom("3fdb4b89f0f8a28eefa3034c6e4451e6", "eebeb964d157dc8d6a16f1ceb6fb3247") !== "${RANDOM.HEX_32}") throw new Error();
 * if (freshFrom("draft-1732100", "draft-1732999") !== "draft-${RUN_ID}") throw new Error();
 * if (freshFrom("Alice", "Bob") !== undefined) throw new Error();
 * if (freshFrom("2", "3") !== undefined || freshFrom("2026-12-03", "2026-12-04") !== undefined) {
 *   throw new Error();
 * }
 * if (freshFrom("${x}-draft-17", "${x}-draft-19") !== "$${x}-draft-${RUN_ID}") throw new Error();
 * ```
 */
export function freshFrom(a: string, b: string): string | undefined {
  // A number, date or time of a few digits a run in both (a quantity, a page, a postcode,
  // `2026-12-03`, `-3`, `1,200`) is what the user typed or picked, which replaying worked once:
  // a run id or hex in its place is no number and no date.
  if (typedNumber(a) && typedNumber(b)) return undefined;
  if (isUuid(a) && isUuid(b)) return "${RANDOM.UUID}";
  if (/^[0-9a-f]+$/i.test(a) && /^[0-9a-f]+$/i.test(b) && a.length === b.length && a.length >= 8) {
    return `\${RANDOM.HEX_${a.length}}`;
  }
  const run = differingRun(a, b);
  // A clock the page read, inside longer text (`"date":1795998569881` in a JSON document): a
  // run id in its digits is no time and no number; the caller sends it as recorded.
  if (!run || stampedIn(a, b, run) || differsInStamp(a, b)) return undefined;
  // A function replacement: in a replacement string "$$" means one "$", which would undo the escape.
  const escape = (t: string) => t.replaceAll("${", () => "$${");
  return `${escape(a.slice(0, run.start))}\${RUN_ID}${escape(a.slice(a.length - run.end))}`;
}

/**
 * Whether `a` and `b` differ only in a reading of the page's clock inside
 * longer text (a millisecond stamp inside a JSON document posted in a form
 * field): the two runs where they differ are clock readings of one form, or
 * they differ only inside one written date and time (`differsInStamp`).
 *
 * @example
 * ```ts
 * import { differsByClock } from "./fresh_from.ts";
 * if (!differsByClock('{"date":1795998569881}', '{"date":1795998696896}')) throw new Error();
 * if (differsByClock("draft-1732100", "draft-1732999")) throw new Error();
 * if (!differsByClock("date: 2026-11-30T03:56:00Z", "date: 2026-11-30T03:58:00Z")) throw new Error();
 * ```
 */
export function differsByClock(a: string, b: string): boolean {
  const run = differingRun(a, b);
  return (run !== undefined && stampedIn(a, b, run)) || differsInStamp(a, b);
}

/** Whether the differing runs of `a` and `b` (`run`, as `differingRun` gives it) are clock readings. */
function stampedIn(a: string, b: string, run: { start: number; end: number }): boolean {
  return isClockReading(
    a.slice(run.start, a.length - run.end),
    b.slice(run.start, b.length - run.end),
  );
}

/** Digits, with the signs and separators numbers, dates, times and phone numbers are written with. */
function typedNumber(value: string): boolean {
  return /^[+-]?\d[\d\s.,:/-]*$/.test(value) && !/\d{10}/.test(value);
}

/**
 * Where `a` and `b` differ, as the length of their common head (`start`) and
 * tail (`end`), widened to the whole alphanumeric run of `a` so that
 * `draft-17` / `draft-19` gives `draft-${RUN_ID}`; `undefined` unless the
 * differing middles are short runs of letters and digits with a digit in
 * them: different words are different data.
 */
function differingRun(a: string, b: string): { start: number; end: number } | undefined {
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let end = 0;
  while (
    end < a.length - start && end < b.length - start && a.at(-1 - end) === b.at(-1 - end)
  ) end++;
  const middleA = a.slice(start, a.length - end);
  const middleB = b.slice(start, b.length - end);
  if (!/^[A-Za-z0-9]{1,64}$/.test(middleA) || !/^[A-Za-z0-9]{1,64}$/.test(middleB)) {
    return undefined;
  }
  if (!/\d/.test(middleA + middleB)) return undefined;
  while (start > 0 && /[A-Za-z0-9]/.test(a[start - 1])) start--;
  while (end > 0 && /[A-Za-z0-9]/.test(a[a.length - end])) end--;
  return { start, end };
}

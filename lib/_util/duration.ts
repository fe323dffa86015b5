/**
 * Durations as people write them: milliseconds as a number (`1500`) or a
 * number with a unit (`500ms`, `1.5s`, `2m`, `1h`), wherever a flow or the
 * CLI takes a time.
 *
 * @module
 */

const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/**
 * Milliseconds from a duration (rounded to a whole millisecond), or
 * `undefined` when the text is not one.
 *
 * @example
 * ```ts
 * import { parseDuration } from "./duration.ts";
 * if (parseDuration("500ms") !== 500 || parseDuration("1.5s") !== 1500) throw new Error();
 * if (parseDuration("2m") !== 120_000 || parseDuration(" 250 ") !== 250) throw new Error();
 * if (parseDuration("5 seconds") !== undefined || parseDuration("-1s") !== undefined) throw new Error();
 * if (parseDuration("1.5") !== undefined) throw new Error("a bare fraction needs its unit");
 * ```
 */
export function parseDuration(text: string): number | undefined {
  // A bare number is whole milliseconds: "1.5" could mean seconds, so it needs its unit.
  const m = /^\s*(?:(\d+)|(\d+(?:\.\d+)?)\s*(ms|s|m|h))\s*$/.exec(text);
  if (!m) return undefined;
  if (m[1] !== undefined) return Number.isSafeInteger(Number(m[1])) ? Number(m[1]) : undefined;
  const ms = Math.round(Number(m[2]) * UNITS[m[3]]);
  return Number.isSafeInteger(ms) ? ms : undefined;
}

/**
 * A duration for messages: `1500 ms` as `1.5 s`, `120000 ms` as `2 min`,
 * `3600000 ms` as `1 h`.
 *
 * @example
 * ```ts
 * import { formatDuration } from "./duration.ts";
 * if (formatDuration(250) !== "250 ms" || formatDuration(1500) !== "1.5 s") throw new Error();
 * if (formatDuration(120_000) !== "2 min" || formatDuration(3_600_000) !== "1 h") throw new Error();
 * ```
 */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${ms} ms`;
  if (ms < 60_000 || ms % 60_000 !== 0) return `${Number((ms / 1000).toFixed(3))} s`;
  return ms % 3_600_000 === 0 ? `${ms / 3_600_000} h` : `${ms / 60_000} min`;
}

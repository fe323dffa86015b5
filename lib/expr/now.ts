/**
 * The time of the run: `${NOW.UNIX}` (seconds), `${NOW.UNIX_MS}`,
 * `${NOW.ISO}`, `${NOW.DATE}` (the day, `2026-11-28`) and `${NOW.DATETIME}`
 * and `${NOW.DATETIME_MS}` (ISO text without its zone, to the second or the
 * millisecond; all UTC), each read from the clock when the request is resolved,
 * with an optional offset into the future or the past written as Grafana
 * and Elasticsearch write date math (`now-1h`): `${NOW.UNIX+1h}`,
 * `${NOW.ISO-30m}`, units `s`, `m`, `h`, `d` and `w`. A converter writes
 * these instead of the conversion's moment, which is stale by the next run.
 *
 * @module
 */
import type { Ref } from "../model/template.ts";
import { ExpressionSyntaxError } from "./errors.ts";

/** How the time is written. */
export type NowFormat = "unix" | "unix-ms" | "iso" | "date" | "datetime" | "datetime-ms";

const FORMATS = new Map<string, NowFormat>([
  ["UNIX", "unix"],
  ["UNIX_MS", "unix-ms"],
  ["ISO", "iso"],
  // The day alone, as forms and booking APIs take a date (`YYYY-MM-DD`, moment's format of one).
  ["DATE", "date"],
  // ISO text cut short of its zone, as servers without time zones take it (Java's LocalDateTime,
  // Python's fromisoformat before 3.11) and scripts write it (`toISOString().slice(0, 19)`).
  ["DATETIME", "datetime"],
  ["DATETIME_MS", "datetime-ms"],
]);

const UNIT_MS = new Map([
  ["s", 1_000],
  ["m", 60_000],
  ["h", 3_600_000],
  ["d", 86_400_000],
  ["w", 604_800_000],
]);

/** At most a century either way: a Date holds it, and more is a typo. */
const MAX_OFFSET_MS = 36_525 * 86_400_000;

const USAGE = "Write ${NOW.UNIX} (seconds), ${NOW.UNIX_MS}, ${NOW.ISO}, ${NOW.DATE}, " +
  "${NOW.DATETIME} or ${NOW.DATETIME_MS}, with an optional " +
  "offset such as ${NOW.UNIX+1h} or ${NOW.ISO-30m} (units s, m, h, d, w).";

/**
 * The reference of `${NOW.…}` (the inside, without `${` and `}`); undefined
 * when `inner` is not under `NOW.` (a bare `${NOW}` stays a name). Throws
 * {@linkcode ExpressionSyntaxError} at the expression, with what was
 * probably meant, for any other spelling.
 *
 * @example
 * ```ts
 * import { nowRef } from "./now.ts";
 * const at = { text: "${NOW.UNIX+1h}", offset: 0 };
 * const ref = nowRef("NOW.UNIX+1h", at);
 * if (ref?.kind !== "now" || ref.format !== "unix" || ref.offsetMs !== 3_600_000) throw new Error();
 * if (nowRef("NOW", at) !== undefined) throw new Error();
 * try {
 *   nowRef("NOW.UNIX+1H", { text: "${NOW.UNIX+1H}", offset: 0 });
 *   throw new Error("expected a syntax error");
 * } catch (error) {
 *   if (!(error as Error).message.startsWith("Unknown time")) throw error;
 * }
 * ```
 */
export function nowRef(inner: string, at: { text: string; offset: number }): Ref | undefined {
  if (!inner.startsWith("NOW.")) return undefined;
  const m = /^NOW\.([A-Za-z_]+)(?:([+-])(\d{1,12})([a-z]))?$/.exec(inner);
  const format = m && FORMATS.get(m[1]);
  const unit = m?.[4] === undefined ? 0 : UNIT_MS.get(m[4]);
  const offsetMs = m && unit !== undefined
    ? (m[2] === "-" ? -1 : 1) * Number(m[3] ?? 0) * unit
    : NaN;
  if (format && Math.abs(offsetMs) <= MAX_OFFSET_MS) {
    return { kind: "now", format, offsetMs: offsetMs === 0 ? 0 : offsetMs };
  }
  throw new ExpressionSyntaxError(
    `Unknown time "${at.text}".`,
    at.offset,
    `${
      format && !Number.isNaN(offsetMs)
        ? "The offset is at most 36525 days. "
        : meant(inner.slice(4))
    }${USAGE}`,
  );
}

/** The likely intent of a wrong `NOW.` spelling, as "Did you mean …? ", or "". */
function meant(rest: string): string {
  // Spaces, a lowercase name, an uppercase unit: ${NOW.unix + 1H} meant ${NOW.UNIX+1h}.
  const m = /^([A-Za-z_]+)\s*(?:([+-])\s*(\d+)\s*([A-Za-z]+))?\s*$/.exec(rest);
  if (!m) return "";
  const format = m[1].toUpperCase();
  if (m[4] === "M" || /^(y|mo|ms)/i.test(m[4] ?? "")) {
    return "The units are s, m (minutes), h, d and w: months, years and milliseconds are not. ";
  }
  const unit = m[4] === undefined || UNIT_MS.has(m[4]) ? m[4] : m[4].toLowerCase();
  if (!FORMATS.has(format) || (unit !== undefined && !UNIT_MS.has(unit))) return "";
  const fixed = `NOW.${format}${m[2] === undefined ? "" : `${m[2]}${m[3]}${unit}`}`;
  return fixed === `NOW.${rest}` ? "" : `Did you mean \${${fixed}}? `;
}

/**
 * The time now (plus the offset) as the reference writes it: whole seconds
 * and milliseconds as numbers, ISO 8601 in UTC as text, its day (UTC) as
 * `YYYY-MM-DD` text, and the ISO text without its zone, to the second
 * (`YYYY-MM-DDTHH:MM:SS`) or the millisecond (`…:SS.sss`).
 *
 * @example
 * ```ts
 * import { nowValue } from "./now.ts";
 * const before = Math.floor(Date.now() / 1000);
 * const unix = nowValue("unix", 60_000) as number;
 * if (unix < before + 60 || unix > Math.floor(Date.now() / 1000) + 60) throw new Error();
 * if (!/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/.test(nowValue("iso", 0) as string)) throw new Error();
 * const day = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
 * if (nowValue("date", 86_400_000) !== day) throw new Error(); // (a run across midnight aside)
 * if (!/^[\d-]{10}T\d\d:\d\d:\d\d$/.test(nowValue("datetime", 0) as string)) throw new Error();
 * if (!/^[\d-]{10}T[\d:]{8}\.\d{3}$/.test(nowValue("datetime-ms", 0) as string)) throw new Error();
 * ```
 */
export function nowValue(format: NowFormat, offsetMs: number): number | string {
  const ms = Date.now() + offsetMs;
  switch (format) {
    case "unix":
      return Math.floor(ms / 1000);
    case "unix-ms":
      return ms;
    case "iso":
      return new Date(ms).toISOString();
    case "date":
      return new Date(ms).toISOString().slice(0, 10);
    case "datetime":
      return new Date(ms).toISOString().slice(0, 19);
    case "datetime-ms":
      return new Date(ms).toISOString().slice(0, 23);
  }
}

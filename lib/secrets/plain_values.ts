/**
 * Values a server never issues as a credential: ordinary words (`default`, `client`,
 * `read-only`) and clock readings (`2026-11-26T08:01:49.210Z`). A response value is a secret by
 * what it is, not by the key or capture name above it; these are what an API says about a
 * credential (its project, its environment, when it was made), and masking them hid them
 * everywhere: a timestamp's first 16 characters are a piece of it, so every time of that minute
 * (the run's start in the JUnit report, each log line's `ts`) was masked too.
 *
 * @module
 */
import { isOrdinaryWord } from "./public_parts.ts";

/** An ISO 8601 date, or date and time (`T` or a space), with seconds, fraction and zone or not. */
const CLOCK_READING =
  /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d{1,9})?)?(?:Z|[+-]\d{2}(?::?\d{2})?)?)?$/;

/**
 * Whether a value from a response is plain data, never an issued secret: an ordinary word or an
 * ISO 8601 date or date-time.
 *
 * @example
 * ```ts
 * import { isPlainValue } from "./plain_values.ts";
 * for (const plain of ["development", "read-only", "2026-11-26T08:01:49.210Z", "2027-01-01"]) {
 *   if (!isPlainValue(plain)) throw new Error(plain);
 * }
 * for (const secret of ["default:development.3b4b7b3e", "tok-9f8e7d6c", "2026-11-26T08:01:49Zx"]) {
 *   if (isPlainValue(secret)) throw new Error(secret);
 * }
 * ```
 */
export function isPlainValue(value: string): boolean {
  return isOrdinaryWord(value) || CLOCK_READING.test(value.trim());
}

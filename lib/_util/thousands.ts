/**
 * Whole numbers with thousands separators, for messages: "10,000".
 *
 * `Number.prototype.toLocaleString` says the same, but its first call in a
 * process loads the ICU locale data, about 16 ms: one module that made a
 * message constant with it when imported added those to every run's
 * start-up. This one is plain string work, the same on every machine.
 *
 * @module
 */

/**
 * `n` with a comma between each group of three digits (`1000` → `"1,000"`),
 * as `n.toLocaleString("en-US")` writes a whole number.
 *
 * @example
 * ```ts
 * import { thousands } from "./thousands.ts";
 * if (thousands(1000) !== "1,000" || thousands(999) !== "999") throw new Error();
 * if (thousands(-1234567) !== "-1,234,567" || thousands(100_000) !== "100,000") throw new Error();
 * ```
 */
export function thousands(n: number): string {
  const [whole, fraction] = String(Math.abs(n)).split(".");
  const grouped = whole.replace(/\B(?=(\d{3})+$)/g, ",");
  return `${n < 0 ? "-" : ""}${grouped}${fraction === undefined ? "" : `.${fraction}`}`;
}

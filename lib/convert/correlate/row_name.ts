/**
 * Which field values may name a list row in a filter that must find the
 * same row on another instance: the conversion's row filters (`captures.ts`)
 * and `--verify`'s (`verify_neighbours.ts`) share this test and add their own
 * (an absolute URL; a control character).
 *
 * @module
 */
import { isUuid, looksLikeId, looksLikeToken } from "../values.ts";
import { holdsCaptured } from "./captured_values.ts";
import type { Correlator } from "./state.ts";

/**
 * Whether `value` under `key` can name a row: short text (at most 100
 * characters), no id, UUID, token, secret or template (a value the flow
 * sends as a template finds its row by the same template in the filter), and
 * no value the flow captures inside it (another on a fresh instance).
 *
 * @example
 * ```ts
 * import { namesRow } from "./row_name.ts";
 * import { emptyCorrelator } from "./state.ts";
 * const c = emptyCorrelator("a", true);
 * c.captured.add("R:127.0.0.1:50261:0");
 * if (!namesRow(c, "name", "invoice") || namesRow(c, "id", "R:127.0.0.1:50261:0:invoice:")) {
 *   throw new Error();
 * }
 * if (namesRow(c, "id", "3f2504e0-4f89-11d3-9a0c-0305e82c3301") || namesRow(c, "n", 7)) throw new Error();
 * ```
 */
export function namesRow(c: Correlator, key: string, value: unknown): value is string {
  return typeof value === "string" && value !== "" && value.length <= 100 &&
    !looksLikeId(key, value) && !isUuid(value) && !looksLikeToken(key, value) &&
    !c.secrets.has(value) && !value.includes("${") && !holdsCaptured(c, value);
}

/**
 * Whether `value` holds the row's own number `id` as a word of its text (`<input
 * name='check35'>` beside `"ID": "35"`): drawn from the number (a checkbox, a delete link), it
 * is another text on another instance, whose row is numbered anew, so it names no row there.
 *
 * @example
 * ```ts
 * import { drawnFromNumber } from "./row_name.ts";
 * if (!drawnFromNumber("35", "<input name='check35'>") || drawnFromNumber("35", "Room 135")) {
 *   throw new Error();
 * }
 * if (drawnFromNumber("abc", "abc") || drawnFromNumber(7, "Harbour")) throw new Error();
 * ```
 */
export function drawnFromNumber(id: unknown, value: string): boolean {
  const text = typeof id === "number" ? String(id) : id;
  if (typeof text !== "string" || !/^\d{1,15}$/.test(text)) return false;
  return new RegExp(`(?<!\\d)${text}(?!\\d)`).test(value);
}

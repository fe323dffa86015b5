/**
 * Keeps huge values (a whole body) out of check results: past a limit a
 * value becomes a marked excerpt, masked before it is cut, since a secret cut
 * short is no longer recognisable.
 *
 * @module
 */
import { jsonHead } from "../_util/json_head.ts";
import type { Masking } from "../model/masking.ts";
import { HEAD_SLACK } from "./json_value.ts";

/** Characters of a value a result keeps. */
const MAX_ACTUAL = 2000;

/**
 * `value` as a result keeps it: whole when it is short, else its masked head
 * marked with how much was left out.
 *
 * @example
 * ```ts
 * import { compact } from "./_compact.ts";
 * import { PLAIN } from "../model/masking.ts";
 * if (compact([1, 2], PLAIN) === undefined) throw new Error();
 * const cut = compact("x".repeat(2010), PLAIN) as string;
 * if (!cut.endsWith(" (10 more characters)")) throw new Error(cut.slice(-40));
 * ```
 */
export function compact(value: unknown, display: Masking): unknown {
  if (value === null || typeof value !== "object") {
    return typeof value === "string" && value.length > MAX_ACTUAL
      ? `${display.head(value, MAX_ACTUAL)} (${value.length - MAX_ACTUAL} more characters)`
      : value;
  }
  const { text, total } = jsonHead(value, MAX_ACTUAL + HEAD_SLACK);
  if (total !== undefined && total <= MAX_ACTUAL) return value;
  const more = total === undefined
    ? `more than ${HEAD_SLACK} more characters`
    : `${total - MAX_ACTUAL} more characters`;
  return `${display.head(text, MAX_ACTUAL)} (${more}, truncated)`;
}

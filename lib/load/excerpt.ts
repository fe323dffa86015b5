/**
 * The source shown under a problem: its line, or for a long line the part
 * around the problem's column, so one generated line of megabytes is not
 * copied into every problem.
 *
 * @module
 */
import type { Problem } from "../model/errors.ts";

/** Characters of a long source line kept around a problem's column. */
export const EXCERPT_WINDOW = 240;

/**
 * The source line a problem is on, or for a long line the part around
 * `column` (and the column that part starts at).
 *
 * @example
 * ```ts
 * import { EXCERPT_WINDOW, excerptOf } from "./excerpt.ts";
 * const text = `a: 1\nb: ${"x".repeat(1000)} oops\n`;
 * if (excerptOf(text, [0, 5], 1, 1).excerpt !== "a: 1") throw new Error();
 * const long = excerptOf(text, [0, 5], 2, 1005);
 * if (long.excerpt?.length !== EXCERPT_WINDOW || !long.excerpt.includes("oops")) throw new Error();
 * ```
 */
export function excerptOf(
  text: string,
  lineStarts: readonly number[],
  line: number,
  column: number,
): Pick<Problem, "excerpt" | "excerptStart"> {
  const start = lineStarts[line - 1];
  if (start === undefined) return {};
  const next = lineStarts[line];
  const end = next === undefined ? text.length : next - 1;
  if (end - start <= EXCERPT_WINDOW) {
    return { excerpt: text.slice(start, end).replace(/\r$/, "") };
  }
  const from = Math.max(
    0,
    Math.min(column - 1 - EXCERPT_WINDOW / 3, end - start - EXCERPT_WINDOW),
  );
  const excerpt = text.slice(start + from, start + from + EXCERPT_WINDOW).replace(/\r$/, "");
  return { excerpt, excerptStart: from + 1 };
}

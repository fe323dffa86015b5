/**
 * Where a page holds a value among several of the same kind: a page with
 * several forms holds a token per form under one field name (Icinga Web 2's
 * `CSRFToken` of its auto-refresh form, then of the page's own), and the
 * browser sends the one of the form it submitted. A capture takes the first
 * match of its pattern, so a value held by a later match is read by a
 * pattern that passes the matches before it: the same place in a fresh copy
 * of the page, whose forms come in the same order.
 *
 * @module
 */

/** How many earlier matches a pattern may pass: a page's forms, not a long list's rows. */
const MOST_PASSED = 20;

/** `pattern` with its first capturing group made non-capturing. */
function nonCapturing(pattern: string): string {
  return pattern.replace(/(?<!\\)\((?!\?)/, "(?:");
}

/**
 * The pattern whose first group is `value` in `html`: `pattern` itself when
 * its first match holds it, else one that passes the matches before the one
 * that does; `undefined` when none does (or it is past {@linkcode MOST_PASSED}).
 *
 * @example
 * ```ts
 * import { patternAt } from "./nth_match.ts";
 * const html = '<input name="t" value="a1"><input name="t" value="b2">';
 * const p = patternAt(html, '<input name="t" value="([^"]*)"', "b2")!;
 * if (new RegExp(p).exec('<input name="t" value="x9"><input name="t" value="y8">')?.[1] !== "y8") {
 *   throw new Error(p);
 * }
 * ```
 */
export function patternAt(html: string, pattern: string, value: string): string | undefined {
  let passed = 0;
  for (const m of html.matchAll(new RegExp(pattern, "g"))) {
    if (m[1] === value) {
      return passed === 0 ? pattern : `(?:${nonCapturing(pattern)}[\\s\\S]*?){${passed}}${pattern}`;
    }
    if (++passed > MOST_PASSED) return undefined;
  }
  return undefined;
}

/**
 * Small text helpers of the redactor: the spans it masks merged into one
 * list, and the line breaks a text holds (a masked text must keep them).
 *
 * @module
 */
import type { Span } from "./secret_index.ts";

/**
 * Sorts spans and merges overlapping or touching ones.
 *
 * @example
 * ```ts
 * import { mergeSpans } from "./_spans.ts";
 * if (JSON.stringify(mergeSpans([[5, 8], [0, 2], [2, 4], [6, 9]])) !== "[[0,4],[5,9]]") throw new Error();
 * ```
 */
export function mergeSpans(spans: Span[]): Span[] {
  spans.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const out: Span[] = [];
  for (const [s, e] of spans) {
    const last = out[out.length - 1];
    if (last && s <= last[1]) last[1] = Math.max(last[1], e);
    else out.push([s, e]);
  }
  return out;
}

/**
 * How many line breaks `text` holds.
 *
 * @example
 * ```ts
 * import { lineBreaks } from "./_spans.ts";
 * if (lineBreaks("a\nb\n") !== 2 || lineBreaks("") !== 0) throw new Error();
 * ```
 */
export function lineBreaks(text: string): number {
  let n = 0;
  for (let at = text.indexOf("\n"); at !== -1; at = text.indexOf("\n", at + 1)) n++;
  return n;
}

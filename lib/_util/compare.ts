/**
 * Text order that does not depend on JavaScript's UTF-16 internals: the order
 * flow files are listed, sharded and merged in, on every machine.
 *
 * @module
 */

/**
 * Compares two strings by Unicode code point. JavaScript's `<` compares
 * UTF-16 code units, which puts characters above U+FFFF before U+E000–U+FFFF;
 * code-point order is the order other tools (and UTF-8 byte order) agree on.
 *
 * @example
 * ```ts
 * import { compareCodePoints } from "./compare.ts";
 * const sorted = ["b", "a/z", "a", "\u{1F600}", "\uFF5E"].sort(compareCodePoints);
 * if (sorted.join(" ") !== "a a/z b \uFF5E \u{1F600}") throw new Error(sorted.join(" "));
 * ```
 */
export function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    // Only a surrogate (an astral character) against U+E000–U+FFFF sorts
    // differently by code point than by code unit; compare whole code points.
    if (x >= 0xd800 && y >= 0xd800) return a.codePointAt(i)! - b.codePointAt(i)!;
    return x - y;
  }
  return a.length - b.length;
}

/**
 * A long text a server or a program gave, kept to its beginning for a message.
 *
 * @module
 */

/**
 * `text` cut to its first `max` characters, with `…` after a cut: the reader
 * knows it was cut, and so does the redactor, which masks a secret's
 * beginning standing before `…` (a secret across the cut showed its first
 * characters in clear when nothing marked the cut).
 *
 * @example
 * ```ts
 * import { clipped } from "./clip.ts";
 * if (clipped("abcdef", 3) !== "abc…") throw new Error();
 * if (clipped("abc", 3) !== "abc") throw new Error();
 * ```
 */
export function clipped(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

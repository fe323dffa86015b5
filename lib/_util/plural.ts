/**
 * One way to count things in messages: "1 flow", "2 flows", "3 entries",
 * and the word alone ("was"/"were") when the number is written elsewhere.
 *
 * @module
 */

/**
 * `n` and the word for that many: `one` for exactly 1, `many` otherwise
 * (0 counts as many: "0 flows").
 *
 * @example
 * ```ts
 * import { plural } from "./plural.ts";
 * if (plural(1, "flow") !== "1 flow" || plural(2, "flow") !== "2 flows") throw new Error();
 * if (plural(0, "entry", "entries") !== "0 entries") throw new Error();
 * ```
 */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/**
 * The word alone for `n` things, for a sentence that writes the number
 * elsewhere (or not at all): "was"/"were", "it"/"them", "line"/"lines".
 *
 * @example
 * ```ts
 * import { pluralWord } from "./plural.ts";
 * if (pluralWord(1, "was", "were") !== "was" || pluralWord(3, "line") !== "lines") throw new Error();
 * ```
 */
export function pluralWord(n: number, one: string, many = `${one}s`): string {
  return n === 1 ? one : many;
}

/**
 * One way to put a literal text inside a regular expression: every character
 * a pattern gives a meaning is escaped, so the pattern matches the text and
 * only it. Converters build patterns from values a recording or a document
 * holds (an id, a cookie's name, a word), and a value holding `.` or `+`
 * must not match more than itself.
 *
 * @module
 */

/**
 * `text` with each of `. * + ? ^ $ { } ( ) | [ ] \` escaped.
 *
 * @example
 * ```ts
 * import { escapeRegExp } from "./regex_escape.ts";
 * if (escapeRegExp("a.b+c") !== "a\\.b\\+c") throw new Error();
 * if (!new RegExp(`^${escapeRegExp("(1)")}$`).test("(1)")) throw new Error();
 * ```
 */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * {@linkcode escapeRegExp} that escapes `/` too, for a pattern a flow writes
 * that readers take for a JavaScript literal's body (`/a\/b/`); the flows
 * written so far spell it so, and changing it would change every one of them.
 *
 * @example
 * ```ts
 * import { escapeRegExpSlash } from "./regex_escape.ts";
 * if (escapeRegExpSlash("/items/1.0") !== "\\/items\\/1\\.0") throw new Error();
 * ```
 */
export function escapeRegExpSlash(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
}

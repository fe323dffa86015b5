/**
 * Text only a server could have written: a confirmation's salted hash, a
 * pending request's token (`eba88f3197491cb4e5c65e1c7ce7f6073668d9c0`), a
 * signed id. A user types words, names and addresses; a route is words.
 *
 * @module
 */
import { isSecretShaped } from "./values.ts";

/**
 * Whether `value` is text a server made up: 16 or more characters, letters
 * and digits mixed, shaped like a secret, no spaces or `@`.
 *
 * @example
 * ```ts
 * import { isMadeUpText } from "./made_up_text.ts";
 * if (!isMadeUpText("eba88f3197491cb4e5c65e1c7ce7f6073668d9c0")) throw new Error();
 * if (isMadeUpText("tide-watchers.harbour.example.test") || isMadeUpText("2026")) throw new Error();
 * ```
 */
export function isMadeUpText(value: string): boolean {
  return value.length >= 16 && isSecretShaped(value) && !/[\s@]/.test(value) &&
    /\d/.test(value) && /[a-z]/i.test(value);
}

/**
 * The one error of work run under a time limit on the helper thread
 * (`time_guard.ts`): a regular expression, an XPath query, a JSON Schema
 * validation or compile, a JSONPath filter. Private helper of `_util/`.
 *
 * @module
 */

/**
 * What went wrong: `check-timeout` when guarded work ran out of time,
 * `check-failed` when it could not run (it threw, ran out of stack, or the
 * helper could not start); `regex-timeout` and `regex-failed` are the same
 * two for a regular expression's match, whose messages name the match.
 */
export type GuardCode = "check-timeout" | "check-failed" | "regex-timeout" | "regex-failed";

/**
 * Work that did not finish within its time limit, or could not run. An error
 * of a match (a `regex-…` code) is named `MatchTimeoutError`, as
 * `_util/regex.ts` has always called it; the class is the same.
 *
 * @example
 * ```ts
 * import { GuardError } from "./guard_error.ts";
 * const error = new GuardError("check-timeout", "did not finish within 1 s");
 * if (error.name !== "GuardError" || error.code !== "check-timeout") throw error;
 * if (new GuardError("regex-failed", "x").name !== "MatchTimeoutError") throw new Error();
 * ```
 */
export class GuardError extends Error {
  /** See {@linkcode GuardCode}. */
  readonly code: GuardCode;
  /** Creates the error with its code and message. */
  constructor(code: GuardCode, message: string) {
    super(message);
    this.name = code.startsWith("regex-") ? "MatchTimeoutError" : "GuardError";
    this.code = code;
  }
}

/**
 * A time limit as messages write it: whole seconds as `2 s`, else `250 ms`.
 *
 * @example
 * ```ts
 * import { formatMs } from "./guard_error.ts";
 * if (formatMs(2000) !== "2 s" || formatMs(250) !== "250 ms") throw new Error();
 * ```
 */
export function formatMs(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}

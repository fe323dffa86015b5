/**
 * An unexpected error met while one step is checked (a library's exception,
 * a stack overflow on a pathological value) is that step's failure, not the
 * run's end: these helpers word it for the step's result, without a stack.
 *
 * @module
 */
import { clipped } from "./clip.ts";

/**
 * The sentence a step's result gives for an unexpected error: what was being
 * done, the error's class and message, and no stack trace.
 *
 * @example
 * ```ts
 * import { internalError } from "./internal_error.ts";
 * const m = internalError("checking", new RangeError("Maximum call stack size exceeded"));
 * if (m !== "internal error while checking: RangeError: Maximum call stack size exceeded") {
 *   throw new Error(m);
 * }
 * if (internalError("capturing", "boom") !== "internal error while capturing: boom") throw new Error();
 * ```
 */
export function internalError(doing: string, error: unknown): string {
  const what = error instanceof Error
    ? `${error.name}: ${error.message.split("\n")[0]}`
    : String(error).split("\n")[0];
  return `internal error while ${doing}: ${clipped(what, 300)}`;
}

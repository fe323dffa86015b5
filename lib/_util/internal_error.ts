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
  return `internal error while ${doing}: ${errorLine(error)}`;
}

/**
 * What an unexpected error says, as the sentence quotes it: its class and the
 * first line of its message, cut to 300 characters (with `…` after the cut).
 *
 * @example
 * ```ts
 * import { errorLine } from "./internal_error.ts";
 * if (errorLine(new TypeError("x\ny")) !== "TypeError: x") throw new Error();
 * if (errorLine("z".repeat(301)) !== `${"z".repeat(300)}…`) throw new Error();
 * ```
 */
export function errorLine(error: unknown): string {
  const what = error instanceof Error
    ? `${error.name}: ${error.message.split("\n")[0]}`
    : String(error).split("\n")[0];
  return clipped(what, 300);
}

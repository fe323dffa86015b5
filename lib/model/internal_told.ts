/**
 * An unexpected error's sentence as flowrun's words around the error's text.
 * The text comes from the runtime, a library or a caller's callback and may
 * quote anything (a password, a token), so it is a value; the words around it
 * are flowrun's. Masked as one text, a short password `while` or `error` made
 * `internal *** *** running the step` of flowrun's own sentence.
 *
 * @module
 */
import { errorLine } from "../_util/internal_error.ts";
import type { Told } from "./told.ts";

/**
 * `internal error while <doing>: <the error's class and message>`, the
 * error's text as the one value quoted. `doing` is flowrun's words and what
 * the flow wrote (a condition as written).
 *
 * @example
 * ```ts
 * import { internalTold } from "./internal_told.ts";
 * import { tell } from "./told.ts";
 * const t = internalTold("running the step", new Error("vault refused while"));
 * const display = { redact: (text: string) => text.replace(/\bwhile\b/g, "***") };
 * const shown = tell(t, display);
 * if (shown !== "internal error while running the step: Error: vault refused ***") throw new Error(shown);
 * ```
 */
export function internalTold(doing: string, error: unknown): Told {
  return { words: [`internal error while ${doing}: `, ""], values: [errorLine(error)] };
}

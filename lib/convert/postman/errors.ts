/**
 * The error a bad collection, environment or globals file gives: a usage
 * error (exit 2) that says which of the three inputs it is about, so the
 * CLI can name the file the user gave.
 *
 * @module
 */
import { UsageError } from "../../model/errors.ts";

/** Which input a problem is in. */
export type PostmanInput = "collection" | "environment" | "globals" | "data";

/**
 * A problem with one input file, code `bad-postman`.
 *
 * @example
 * ```ts
 * import { PostmanInputError } from "./errors.ts";
 * const e = new PostmanInputError("environment", "It has no values.", "Export it again.");
 * if (e.code !== "bad-postman" || e.input !== "environment") throw new Error();
 * ```
 */
export class PostmanInputError extends UsageError {
  /** The input the problem is in. */
  readonly input: PostmanInput;

  /** A problem in `input`, with its message and the fix. */
  constructor(input: PostmanInput, message: string, hint: string) {
    super("bad-postman", message, hint);
    this.name = "PostmanInputError";
    this.input = input;
  }
}

/**
 * Why JSON.parse refused some text, without echoing the text (a binary file
 * would print raw bytes): the reason and, where the runtime says it, the
 * line and column.
 *
 * @example
 * ```ts
 * import { jsonProblem } from "./errors.ts";
 * const m = jsonProblem(new SyntaxError("Expected property name or '}' in JSON at position 2 (line 1 column 3)"));
 * if (m !== "Expected property name or '}' at line 1, column 3") throw new Error(m);
 * if (jsonProblem(new SyntaxError(`Unexpected token '\u0001', "\u0001\u0002" is not valid JSON`)) !== "Unexpected token '\\u0001'") {
 *   throw new Error();
 * }
 * ```
 */
export function jsonProblem(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const at = message.match(/\(line (\d+) column (\d+)\)/);
  // Control characters are matched on purpose: a binary file's bytes are shown as escapes.
  // deno-lint-ignore no-control-regex
  const control = /[\u0000-\u001f\u007f-\u009f]/g;
  const reason = message.split(/ in JSON at position|, ".*" is not valid JSON/s)[0]
    .replace(control, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`)
    .slice(0, 120);
  return at ? `${reason} at line ${at[1]}, column ${at[2]}` : reason;
}

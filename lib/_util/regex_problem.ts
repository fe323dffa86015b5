/**
 * How a bad regular expression is worded, wherever one is written: a flow's
 * `matches` check or `regex` capture when it loads (`load/pattern.ts`), a
 * `matches` pattern an expression makes at run time (`check/operators.ts`),
 * `convert har --exclude-url` (`cli/convert.ts`); and why a match or a schema
 * `pattern` can run out of time (`check/operators.ts`, `check/schema.ts`).
 * Nothing here compiles: each site compiles the way it needs (cached, or
 * plain) and hands the error over.
 *
 * @module
 */

/** V8's lead on a `SyntaxError` from `new RegExp`, which the flow's message says itself. */
const ENGINE_LEAD = /^Invalid regular expression: /;

/**
 * The hint of a `bad-regex` problem in a flow.
 *
 * @example
 * ```ts
 * import { BAD_REGEX_HINT } from "./regex_problem.ts";
 * if (!BAD_REGEX_HINT.includes("\\.")) throw new Error();
 * ```
 */
export const BAD_REGEX_HINT = "Escape special characters with a backslash, e.g. \\. for a dot.";

/**
 * Why a match (or a schema's `pattern`) may not finish in time, said after
 * the time limit.
 *
 * @example
 * ```ts
 * import { SLOW_REGEX } from "./regex_problem.ts";
 * if (!SLOW_REGEX.startsWith("a pattern with nested quantifiers")) throw new Error();
 * ```
 */
export const SLOW_REGEX =
  "a pattern with nested quantifiers such as (a+)+ can take exponential time";

/**
 * The engine's reason a pattern does not compile (`Invalid regular
 * expression: /(/: Unterminated group`).
 *
 * @example
 * ```ts
 * import { regexReason } from "./regex_problem.ts";
 * try {
 *   new RegExp("(");
 * } catch (error) {
 *   if (!regexReason(error).endsWith("Unterminated group")) throw new Error();
 * }
 * ```
 */
export function regexReason(error: unknown): string {
  return (error as Error).message;
}

/**
 * The `bad-regex` message for a pattern that does not compile: `Invalid
 * regular expression "(": /(/: Unterminated group.` for a flow's pattern;
 * given the `option` it came from, the engine's whole message follows, as
 * the command line has always printed it (docs/troubleshooting.md shows both).
 *
 * @example
 * ```ts
 * import { badRegexMessage } from "./regex_problem.ts";
 * const error = new SyntaxError("Invalid regular expression: /(/: Unterminated group");
 * if (badRegexMessage("(", error) !== 'Invalid regular expression "(": /(/: Unterminated group.') {
 *   throw new Error();
 * }
 * if (!badRegexMessage("(", error, "--exclude-url").startsWith('Invalid --exclude-url regular expression "(": Invalid')) {
 *   throw new Error();
 * }
 * ```
 */
export function badRegexMessage(source: string, error: unknown, option?: string): string {
  const reason = regexReason(error);
  return option === undefined
    ? `Invalid regular expression "${source}": ${reason.replace(ENGINE_LEAD, "")}.`
    : `Invalid ${option} regular expression "${source}": ${reason}.`;
}

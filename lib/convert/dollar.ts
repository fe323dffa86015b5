/**
 * A literal `$` right before an expression: `\$$AMOUNT` in a curl command,
 * `${{price}}` in a Postman body. Written `$` then `${ENV.AMOUNT}`, the flow
 * held `$${ENV.AMOUNT}`, flowrun's escape for the text `${ENV.AMOUNT}`: the
 * text was sent instead of the value (and `$` then `{x}` would read as an
 * expression). Such a `$` comes from a var instead.
 *
 * @module
 */

/** The var holding a literal `$`. */
export const DOLLAR_VAR = "dollar";

/** The reference to {@linkcode DOLLAR_VAR} as flow text. */
export const DOLLAR_REF = `\${vars.${DOLLAR_VAR}}`;

/**
 * Flow text that an expression (or text starting with `{`) follows: each
 * `$` of a run at its end taken from the var, so the two do not join into
 * `$${` or `${`.
 *
 * @example
 * ```ts
 * import { beforeExpression } from "./dollar.ts";
 * if (beforeExpression("price: $") !== "price: ${vars.dollar}") throw new Error();
 * if (beforeExpression("$$") !== "${vars.dollar}${vars.dollar}") throw new Error();
 * if (beforeExpression("a$${b") !== "a$${b") throw new Error();
 * ```
 */
export function beforeExpression(text: string): string {
  const run = /\$+$/.exec(text);
  return run ? text.slice(0, run.index) + DOLLAR_REF.repeat(run[0].length) : text;
}

/**
 * The two errors of the expression language: a malformed `${…}` found when a
 * flow is loaded, and a reference that has no value when a step runs.
 *
 * @module
 */
import { SyntaxAtError } from "../model/errors.ts";
import { tell, type Told } from "../model/told.ts";

/**
 * A malformed expression, found while parsing a template.
 *
 * @example
 * ```ts
 * import { ExpressionSyntaxError } from "./errors.ts";
 * import { parseTemplate } from "./template.ts";
 * try {
 *   parseTemplate("id: ${vars.id");
 *   throw new Error("expected a syntax error");
 * } catch (error) {
 *   if (!(error instanceof ExpressionSyntaxError) || error.offset !== 4) throw error;
 * }
 * ```
 */
export class ExpressionSyntaxError extends SyntaxAtError {
  constructor(message: string, offset: number, hint?: string) {
    super("bad-expression", message, offset, hint);
    this.name = "ExpressionSyntaxError";
  }
}

/**
 * An expression that could not be resolved while running (an unset variable,
 * a missing capture).
 *
 * @example
 * ```ts
 * import { ExpressionError } from "./errors.ts";
 * import { evaluate, parseTemplate } from "./template.ts";
 * const scope = { env: () => undefined, vars: new Map(), steps: new Map(), runId: "r" };
 * try {
 *   evaluate(parseTemplate("${ENV.TOKEN}"), scope);
 *   throw new Error("expected an unresolved expression");
 * } catch (error) {
 *   if (!(error instanceof ExpressionError)) throw error;
 *   if (error.told?.values.length !== 0) throw error; // flowrun's words and the flow's text only
 * }
 * ```
 */
export class ExpressionError extends Error {
  readonly code = "unresolved-expression";
  /**
   * The message's words apart from the values it quotes (a field a var's value has, a value
   * that is no URL), when it was made so: the values are masked where the message is shown and
   * flowrun's words never are (a short password `defined`, `set`). A message made as one text
   * is masked as one value.
   */
  readonly told?: Told;
  constructor(message: string | Told) {
    super(typeof message === "string" ? message : tell(message));
    if (typeof message !== "string") this.told = message;
    this.name = "ExpressionError";
  }
}

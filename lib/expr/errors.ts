/**
 * The two errors of the expression language: a malformed `${…}` found when a
 * flow is loaded, and a reference that has no value when a step runs.
 *
 * @module
 */
import { SyntaxAtError } from "../model/errors.ts";

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
 * }
 * ```
 */
export class ExpressionError extends Error {
  readonly code = "unresolved-expression";
  constructor(message: string) {
    super(message);
    this.name = "ExpressionError";
  }
}

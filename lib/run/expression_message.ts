/**
 * An expression's error as a step shows it (an unset variable, a field a
 * var's value lacks): masked where it is made, each value it quotes as a
 * value (the keys a captured answer has, a value that is no URL), flowrun's
 * words and the flow's own text (a variable's name, the expression as
 * written) never, so the reports keep it as flowrun's text (see
 * `secrets/own_fields.ts`). A message made as one text is masked whole, as
 * a value.
 *
 * @module
 */
import type { ExpressionError } from "../expr/template.ts";
import type { Masking } from "../model/masking.ts";
import { tell } from "../model/told.ts";

/**
 * The message of `error`, masked by `display`.
 *
 * @example
 * ```ts
 * import { expressionMessage } from "./expression_message.ts";
 * import { ExpressionError } from "../expr/template.ts";
 * import { told } from "../model/told.ts";
 * import { Redactor } from "../secrets/mod.ts";
 * const r = new Redactor();
 * r.add("role");
 * r.add("keys");
 * const made = new ExpressionError(told`Var "u" has no field "id" (its keys: ${"keys, role"}).`);
 * const shown = expressionMessage(made, r);
 * if (shown !== 'Var "u" has no field "id" (its keys: ***, ***).') throw new Error(shown);
 * if (expressionMessage(new ExpressionError("Not a role."), r) !== "Not a ***.") throw new Error();
 * ```
 */
export function expressionMessage(
  error: ExpressionError,
  display: Pick<Masking, "redact">,
): string {
  return error.told === undefined ? display.redact(error.message) : tell(error.told, display);
}

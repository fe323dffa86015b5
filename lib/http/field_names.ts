/**
 * Form and multipart field names as sent: a name that holds `${…}` is
 * resolved when the request is made. One that gives nothing, or the name of
 * another field of the same body, is an error of the step: sent, it would
 * be a field the server reads as no field, or two values under one name.
 *
 * @module
 */
import { ExpressionError } from "../expr/errors.ts";
import { evaluate, type Scope, type Template, toText } from "../expr/template.ts";
import { around, told } from "../model/told.ts";

/**
 * Each field's name as sent, in order.
 *
 * @example
 * ```ts
 * import { fieldNames } from "./field_names.ts";
 * import { parseTemplate } from "../expr/template.ts";
 * const nameFrom = parseTemplate("chk_${vars.id}");
 * const scope = { env: () => undefined, vars: new Map([["id", 4]]), steps: new Map(), runId: "r" };
 * const got = fieldNames([{ name: "a" }, { name: "chk_${vars.id}", nameFrom }], scope);
 * if (got.join() !== "a,chk_4") throw new Error(got.join());
 * ```
 */
export function fieldNames(
  fields: readonly { name: string; nameFrom?: Template }[],
  scope: Scope,
): string[] {
  const names = fields.map(({ name, nameFrom }) =>
    nameFrom ? toText(evaluate(nameFrom, scope)) : name
  );
  fields.forEach(({ nameFrom }, i) => {
    if (!nameFrom) return;
    if (names[i] === "") {
      throw new ExpressionError(
        `The field name "${nameFrom.source}" gives an empty name: the server would read no field.`,
      );
    }
    if (names.some((other, j) => j !== i && other === names[i])) {
      // The name is what the expression gave: a value of the message, masked where it is shown.
      throw new ExpressionError(
        around(
          `The field name "${nameFrom.source}" gives `,
          told`${JSON.stringify(names[i])}`,
          ", the name of another field of the body: write one field, or a list to repeat it.",
        ),
      );
    }
  });
  return names;
}

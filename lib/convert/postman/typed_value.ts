/**
 * Whether a `{{name}}` a request sends may hold a value other than text: Newman puts each
 * value's text into a raw body, where a flow's map value that is exactly one expression keeps
 * the value's type, so such a value quoted in a JSON body (`"price": "{{price}}"`) is sent as
 * the body's text (body.ts).
 *
 * @module
 */
import { madeKind } from "./script/data_row.ts";

/** A variable's value the collection, environment or globals file gives, if any. */
export type Known = (name: string) => string | undefined;
/**
 * Whether `{{name}}`, resolved to `expr`, may hold a value other than text when the request is
 * sent: a data row's number, a value captured from an answer, a number a script made.
 */
export type Typed = (name: string, expr: string) => boolean;

/**
 * Whether `{{name}}`, resolved to `expr`, may be a number or a boolean when sent: a capture
 * (the answer's type, unknown here), a number or boolean a script made (`made`, its flow
 * expression), or a data file column some row gives so (`typedColumn`).
 *
 * @example
 * ```ts
 * import { mayHoldTyped } from "./typed_value.ts";
 * if (!mayHoldTyped("${steps.create.capture.id}", undefined, false)) throw new Error();
 * if (!mayHoldTyped("${vars.stamp}", "${NOW.UNIX_MS}", false)) throw new Error();
 * if (!mayHoldTyped("${vars.price}", undefined, true)) throw new Error();
 * if (mayHoldTyped("${vars.name}", undefined, false)) throw new Error();
 * ```
 */
export function mayHoldTyped(
  expr: string,
  made: string | undefined,
  typedColumn: boolean,
): boolean {
  if (/^\$\{steps\.[^}]+\}$/.test(expr)) return true;
  if (made !== undefined && madeKind(made) !== undefined) return true;
  return expr.startsWith("${vars.") && typedColumn;
}

/**
 * What a flow's bodies read of its variables: the files' values (`values`), and
 * {@linkcode mayHoldTyped} with `made` the values its scripts made so far (name → flow
 * expression) and `typedColumns` the data file's columns some row gives a number or boolean.
 *
 * @example
 * ```ts
 * import { bodyValues } from "./typed_value.ts";
 * const [known, typed] = bodyValues(new Map([["stamp", "${NOW.UNIX_MS}"]]), {
 *   values: new Map([["name", "ann"]]),
 *   typedColumns: new Set(["price"]),
 * });
 * if (known("name") !== "ann" || typed("name", "${vars.name}")) throw new Error();
 * if (!typed("stamp", "${vars.stamp}") || !typed("price", "${vars.price}")) throw new Error();
 * ```
 */
export function bodyValues(
  made: ReadonlyMap<string, string>,
  vars: { values: ReadonlyMap<string, string>; typedColumns: ReadonlySet<string> },
): [Known, Typed] {
  return [
    (name) => vars.values.get(name),
    (name, expr) => mayHoldTyped(expr, made.get(name), vars.typedColumns.has(name)),
  ];
}

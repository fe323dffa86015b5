/**
 * Captures a script keeps as text (`set(k, json.id.toString())`, a capture `as: string`), by
 * their flow expression: a later script's read of the variable is text, so a comparison with a
 * part's text (number_of.ts) says what Postman says. A variable captured as the answer holds it
 * is of a type known only when the flow runs, and such a comparison stays a comment.
 *
 * @module
 */
import type { Translation } from "./script/translation.ts";

type Capture = Pick<Translation["captures"][number], "when" | "as">;

/** The part of the converter's shared state (flow_state.ts) these read and write. */
interface Noted {
  vars: { kept: Set<string> };
  texts?: Set<string>;
}

/**
 * Notes a step's capture, read as `expr` by later requests and scripts: one a condition may leave
 * at the earlier value (the variables' `kept`), one kept as text (`texts`).
 *
 * @example
 * ```ts
 * import { noteCapture, texts } from "./text_captures.ts";
 * const shared: { vars: { kept: Set<string> }; texts?: Set<string> } = { vars: { kept: new Set() } };
 * noteCapture(shared, { as: "string" }, "${steps.a.capture.id}");
 * if (!texts(shared, "${steps.a.capture.id}").text || texts(shared, "${vars.id}").text) throw new Error();
 * ```
 */
export function noteCapture(shared: Noted, c: Capture, expr: string): void {
  if (c.when) shared.vars.kept.add(expr);
  if (c.as === "string") (shared.texts ??= new Set()).add(expr);
}

/**
 * `{ text: true }` for a capture kept as text, a variable's `Sym` member; `{}` otherwise.
 *
 * @example
 * ```ts
 * import { textOf } from "./text_captures.ts";
 * if (!textOf({ as: "string" }).text || textOf({ as: "length" }).text || textOf({}).text) throw new Error();
 * ```
 */
export function textOf(c: Capture): { text?: true } {
  return c.as === "string" ? { text: true } : {};
}

/**
 * `{ text: true }` when the flow expression `expr` reads a capture kept as text; `{}` otherwise.
 *
 * @example
 * ```ts
 * import { texts } from "./text_captures.ts";
 * const shared = { texts: new Set(["${steps.a.capture.id}"]) };
 * if (!texts(shared, "${steps.a.capture.id}").text || texts(shared, "${vars.b}").text) throw new Error();
 * ```
 */
export function texts(shared: Pick<Noted, "texts">, expr: string): { text?: true } {
  return shared.texts?.has(expr) ? { text: true } : {};
}

/**
 * Whether a value sent in a credential's place is no secret to ask the user
 * for: the page put it in the form (a hidden input, a checkbox's declared
 * value, a password box the page filled itself: prefilled_passwords.ts), or
 * it is words typed into a visible text input (text_fields.ts), not a pasted
 * token, or words the API shows outside a credential place (worded_fields.ts:
 * `"token": "display"`). A field the pages declared a password input is the
 * page's only where the page filled it with that very value.
 *
 * @module
 */
import type { Step } from "../model.ts";
import { isSecretShaped } from "../values.ts";
import { heldHidden } from "./hidden_fields.ts";
import { heldInPasswordBox } from "./prefilled_passwords.ts";
import type { Correlator, Where } from "./state.ts";
import { isWordedText } from "./worded_fields.ts";

/**
 * Whether the page put `value` in the form itself: a hidden input's, or the
 * declared value of a checkbox or radio (choice_fields.ts), never one the user typed.
 */
function pageValue(c: Correlator, key: string, value: string, step: Step): boolean {
  return heldHidden(c, key, value, step) || (c.choiceFields.get(key)?.has(value) ?? false);
}

/**
 * Whether field `key`'s `value` that `step` sends is no secret to ask for (see the module).
 *
 * @example
 * ```ts
 * import { notAsked } from "./not_asked.ts";
 * import { emptyCorrelator, NOT_A_BODY } from "./state.ts";
 * const c = emptyCorrelator("a", true);
 * c.passwordFields.add("pass1");
 * const page = { name: "open_edit", last: { url: new URL("http://w.test/edit"), mimeType: "text/html",
 *   responseText: '<input type="password" name="pass1" value="******">' } };
 * const save = { name: "edit", first: { method: "POST", url: new URL("http://w.test/edit") } };
 * // deno-lint-ignore no-explicit-any
 * c.steps.push(page as any);
 * // deno-lint-ignore no-explicit-any
 * if (!notAsked(c, "pass1", "******", save as any, NOT_A_BODY)) throw new Error();
 * // deno-lint-ignore no-explicit-any
 * if (notAsked(c, "pass1", "typed-secret", save as any, NOT_A_BODY)) throw new Error();
 * ```
 */
export function notAsked(
  c: Correlator,
  key: string,
  value: string,
  step: Step,
  where: Where,
): boolean {
  if (c.passwordFields.has(key)) return heldInPasswordBox(c, key, value, step);
  return pageValue(c, key, value, step) || (c.textFields.has(key) && !isSecretShaped(value)) ||
    isWordedText(key, value, where.login || (where.account ?? false));
}

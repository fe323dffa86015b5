/**
 * A `pm.test`'s title as the check's name. Newman runs a test whatever its title is made of
 * (`"validate result" + pm.iterationData.get("result")`); the title only labels it.
 *
 * @module
 */
import type { Sym } from "./sym.ts";

/**
 * A test's title as text: a literal, or text joined with variables, each written as Postman
 * writes it (`{{name}}`: a check's name is not expanded); `undefined` for anything else (a
 * part of the response), which leaves the test untranslated as before.
 *
 * @example
 * ```ts
 * import { titleText } from "./title.ts";
 * const made = titleText({ k: "cat", parts: [{ k: "lit", value: "result " }, { k: "var", name: "r", expr: "${vars.r}" }] });
 * if (made !== "result {{r}}" || titleText({ k: "path", path: "$.json.id" }) !== undefined) throw new Error(made);
 * ```
 */
export function titleText(s: Sym | undefined): string | undefined {
  if (s?.k === "lit") return String(s.value);
  if (s?.k === "var") return `{{${s.name}}}`;
  if (s?.k !== "cat") return undefined;
  const parts = s.parts.map(titleText);
  return parts.includes(undefined) ? undefined : parts.join("");
}

/**
 * A `pm.test`'s title as the check's name. Newman runs a test whatever its title is made of
 * (`"validate result" + pm.iterationData.get("result")`); the title only labels it.
 *
 * @module
 */
import { ELEMENT } from "./each.ts";
import type { Sym } from "./sym.ts";

/**
 * A test's title as text: a literal, or text joined with variables, each written as Postman
 * writes it (`{{name}}`: a check's name is not expanded), and a part of a loop's element
 * (`"Item " + item.id` in `list.forEach(item => pm.test(…))`) as its path, `Item <@.id>`: one
 * name for the test Newman runs once per element, each named after it; `undefined` for anything
 * else (another part of the response), which leaves the test untranslated as before.
 *
 * @example
 * ```ts
 * import { titleText } from "./title.ts";
 * const made = titleText({ k: "cat", parts: [{ k: "lit", value: "result " }, { k: "var", name: "r", expr: "${vars.r}" }] });
 * if (made !== "result {{r}}" || titleText({ k: "path", path: "$.json.id" }) !== undefined) throw new Error(made);
 * const each = titleText({ k: "cat", parts: [{ k: "lit", value: "Item " }, { k: "path", path: "@.id" }] });
 * if (each !== "Item <@.id>") throw new Error(each);
 * ```
 */
export function titleText(s: Sym | undefined): string | undefined {
  if (s?.k === "lit") return String(s.value);
  if (s?.k === "var") return `{{${s.name}}}`;
  // The element's own part cannot be missing as another response part can: its loop found it.
  if (s?.k === "path" && s.path.startsWith(ELEMENT)) return `<${s.path}>`;
  if (s?.k !== "cat") return undefined;
  const parts = s.parts.map(titleText);
  return parts.includes(undefined) ? undefined : parts.join("");
}

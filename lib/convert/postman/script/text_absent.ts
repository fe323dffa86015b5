/**
 * Text that must not hold a word: `pm.expect(pm.response.text()).to.not.include('SQL')`. A flow
 * has `contains` and no negation of it, but on text the negation is a pattern: the text matches
 * `^(?![\s\S]*word)` exactly when the word is nowhere in it (empty text included), as chai's
 * `not.include` holds. Only parts that are always text take it: the response's body as text
 * and a header's value; a JSON member may be a list, where `include` asks for an element.
 *
 * @module
 */
import { escapeRegExp } from "../../../_util/regex_escape.ts";

/** A check as sym.ts's `Cond` holds it (written out here: sym.ts imports this file). */
interface Cond {
  path: string;
  op: string;
  value: unknown;
}

/** The body as text, or a header's value: parts a response always gives as text. */
const TEXT_PATH = /^\$\.(?:body$|headers(?:\.|\[))/;

/**
 * The negation of `contains` of a word on text: the text matching a pattern that finds the word
 * nowhere. `undefined` for a part that may be no text, or a value that is not a plain word (not
 * text, empty, or holding `$`, which a flow reads in a check as a template).
 *
 * @example
 * ```ts
 * import { textAbsent } from "./text_absent.ts";
 * const c = textAbsent({ path: "$.body", op: "contains", value: "a.b" });
 * if (c?.op !== "matches" || !new RegExp(String(c.value)).test("axb") || new RegExp(String(c.value)).test("x a.b")) throw new Error();
 * if (textAbsent({ path: "$.json.tags", op: "contains", value: "a" }) !== undefined) throw new Error();
 * if (textAbsent({ path: "$.body", op: "contains", value: "${x}" }) !== undefined) throw new Error();
 * ```
 */
export function textAbsent(c: Cond): Cond | undefined {
  if (c.op !== "contains" || !TEXT_PATH.test(c.path)) return undefined;
  const word = c.value;
  if (typeof word !== "string" || word === "" || word.includes("$")) return undefined;
  return { path: c.path, op: "matches", value: `^(?![\\s\\S]*${escapeRegExp(word)})` };
}

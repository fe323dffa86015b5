/**
 * What a method called on a response part means (`part.includes(v)`, `hasOwnProperty`, a
 * regular expression's `test`), for the script evaluator (`eval.ts`).
 *
 * @module
 */
import { cond, pathOf } from "./calls.ts";
import type { Node } from "./parse.ts";
import { flowText, member, type Sym } from "./sym.ts";

/** Methods on a response part, by name: what `part.method(arg)` means. */
export const METHODS = new Map<string, (path: string, arg: unknown) => Sym | undefined>([
  [
    "hasOwnProperty",
    (p, v) => (typeof v === "string" ? cond(member(p, v), "exists", true) : undefined),
  ],
  // `includes(undefined)` (a variable nothing sets) looks for the word "undefined" in a text and
  // for a missing element in a list: which one the converter cannot know, so no check.
  ["includes", (p, v) => (v === undefined ? undefined : cond(p, "contains", flowText(v)))],
  ["has", (p, v) => {
    if (p === "$.headers") {
      return typeof v === "string" ? cond(member(p, v.toLowerCase()), "exists", true) : undefined;
    }
    // The legacy sandbox's String.prototype.has: `responseBody.has("x")`, `data.auth.has("Basic")`.
    const known = (p === "$.body" && v !== undefined) || typeof v === "string";
    return known ? cond(p, "contains", flowText(v)) : undefined;
  }],
  ["indexOf", (p, v) => ({ k: "path", path: `indexOf:${p}:${JSON.stringify(v)}` })],
]);

/** Methods that pick from a list (`pick.ts`). */
export const PICKED = new Set(["find", "filter", "some", "map"]);

/** A text holding a variable's value, as `to.include(pm.environment.get("x"))` reads it. */
export const variableArg = (method: string, base: string, arg: Sym | undefined) =>
  method === "includes" && arg?.k === "var" ? cond(base, "contains", arg.expr) : undefined;

/** `/re/.test(x)`: the part matches; `null` when the call is no regular expression's `test`. */
export function regexTest(
  method: string,
  target: Node,
  arg: Sym | undefined,
): Sym | undefined | null {
  if (method !== "test" || target.type !== "Literal" || !target.regex) return null;
  const subject = pathOf(arg);
  if (!subject || target.regex.flags !== "") return undefined;
  return cond(subject, "matches", flowText(target.regex.pattern));
}

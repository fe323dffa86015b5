/**
 * What a method called on a response part means (`part.includes(v)`, `hasOwnProperty`, a
 * regular expression's `test`), for the script evaluator (`eval.ts`).
 *
 * @module
 */
import { cond, pathOf } from "./calls.ts";
import type { Node } from "./parse.ts";
import { flowText, member, type Sym } from "./sym.ts";

/**
 * Methods on a response part, by name: what `part.method(arg)` means.
 *
 * @example
 * ```ts
 * import { METHODS } from "./part_methods.ts";
 * const s = METHODS.get("hasOwnProperty")!("$.json", "id");
 * if (s?.k !== "cond" || s.conds[0].path !== "$.json.id" || s.conds[0].op !== "exists") {
 *   throw new Error();
 * }
 * if (METHODS.get("includes")!("$.body", undefined) !== undefined) throw new Error();
 * ```
 */
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

/**
 * Methods that pick from a list (`pick.ts`).
 *
 * @example
 * ```ts
 * import { PICKED } from "./part_methods.ts";
 * if (!PICKED.has("find") || PICKED.has("includes")) throw new Error();
 * ```
 */
export const PICKED = new Set(["find", "filter", "some", "map"]);

/**
 * A text holding a variable's value, as `to.include(pm.environment.get("x"))` reads it.
 *
 * @example
 * ```ts
 * import { variableArg } from "./part_methods.ts";
 * const s = variableArg("includes", "$.body", { k: "var", name: "x", expr: "${vars.x}" });
 * if (s?.k !== "cond" || s.conds[0].value !== "${vars.x}") throw new Error();
 * if (variableArg("indexOf", "$.body", undefined) !== undefined) throw new Error();
 * ```
 */
export const variableArg = (method: string, base: string, arg: Sym | undefined) =>
  method === "includes" && arg?.k === "var" ? cond(base, "contains", arg.expr) : undefined;

/**
 * `/re/.test(x)`: the part matches; `null` when the call is no regular expression's `test`.
 *
 * @example
 * ```ts
 * import { regexTest } from "./part_methods.ts";
 * const regex = { type: "Literal", regex: { pattern: "^ok", flags: "" } } as never;
 * const s = regexTest("test", regex, { k: "path", path: "$.json.state" });
 * if (s?.k !== "cond" || s.conds[0].op !== "matches") throw new Error();
 * if (regexTest("includes", regex, undefined) !== null) throw new Error();
 * ```
 */
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

/**
 * `x.constructor === Object` (the legacy sandbox's way to ask a value's type, with `tests["…"] =`):
 * the type check flowrun has, since a value from JSON has one of five built-in constructors.
 *
 * @module
 */
import type { Node } from "./parse.ts";
import { isPseudo, type Sym } from "./sym.ts";

/** The built-in constructors of what JSON holds, and the type each is in a flow's checks. */
const TYPES = new Map([
  ["Object", "object"],
  ["Array", "array"],
  ["Number", "number"],
  ["String", "string"],
  ["Boolean", "boolean"],
]);

/**
 * The type check `node` (`a.constructor === Number`, either side) means, with `read` giving the
 * response part `a` is; `undefined` for any other comparison.
 *
 * @example
 * ```ts
 * import { constructorCheck } from "./constructor_type.ts";
 * import { parseScript } from "./parse.ts";
 * const parsed = parseScript("x.constructor === Number");
 * if (!parsed.ok) throw new Error(parsed.why);
 * const node = parsed.program.body[0].expression;
 * const s = constructorCheck(node, () => ({ k: "path", path: "$.json.input" }));
 * if (s?.k !== "cond" || s.conds[0].op !== "type" || s.conds[0].value !== "number") throw new Error();
 * ```
 */
export function constructorCheck(node: Node, read: (n: Node) => Sym | undefined): Sym | undefined {
  if (node.operator !== "===" && node.operator !== "==") return undefined;
  for (const [of, name] of [[node.left, node.right], [node.right, node.left]]) {
    const type = name.type === "Identifier" ? TYPES.get(name.name) : undefined;
    const isConstructor = of.type === "MemberExpression" && !of.computed &&
      of.property.name === "constructor";
    if (!type || !isConstructor) continue;
    const part = read(of.object);
    if (part?.k !== "path" || isPseudo(part.path)) return undefined;
    return { k: "cond", conds: [{ path: part.path, op: "type", value: type }] };
  }
  return undefined;
}

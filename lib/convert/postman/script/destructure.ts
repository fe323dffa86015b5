/**
 * `const { data, meta: m } = json;`: each name a member of the value, when
 * the value is a response part and every name is plain (no default, no rest,
 * no nesting); anything else is not translated.
 *
 * @module
 */
import { type EvalContext, evaluate } from "./eval.ts";
import type { Node } from "./parse.ts";
import { member, type Sym } from "./sym.ts";

/**
 * The names a destructuring declaration `d` gives, with what each reads; undefined when not plain.
 *
 * @example
 * ```ts
 * import { destructured } from "./destructure.ts";
 * import { parseScript } from "./parse.ts";
 * const p = parseScript("const { data, meta: m } = pm.response.json();");
 * if (!p.ok) throw new Error(p.why);
 * const ctx = { scope: new Map(), tests: new Map(), variable: () => ({ k: "lit" as const, value: undefined }) };
 * const names = destructured(p.program.body[0].declarations[0], ctx);
 * if (JSON.stringify(names) !== '[["data",{"k":"path","path":"$.json.data"}],["m",{"k":"path","path":"$.json.meta"}]]') throw new Error(JSON.stringify(names));
 * ```
 */
export function destructured(d: Node, ctx: EvalContext): [string, Sym][] | undefined {
  const of = d.init ? evaluate(d.init, ctx, 0) : undefined;
  const plain = (p: Node) =>
    p.type === "Property" && !p.computed && p.key.type === "Identifier" &&
    p.value.type === "Identifier";
  if (of?.k !== "path" || !d.id.properties.every(plain)) return undefined;
  return d.id.properties.map((
    p: Node,
  ) => [p.value.name, { k: "path", path: member(of.path, p.key.name) }]);
}

/**
 * `const { data, meta: m } = json;` and `const { data: { token } } = json;`:
 * each name a member of the value (at any depth), when the value is a
 * response part and every name is plain or a nested pattern of plain names
 * (no default, no rest); anything else is not translated.
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
  return of?.k === "path" ? names(d.id, of.path) : undefined;
}

/** The names an object pattern gives under `path`, nested patterns read one member deeper. */
function names(pattern: Node, path: string): [string, Sym][] | undefined {
  if (pattern.type !== "ObjectPattern") return undefined;
  const out: [string, Sym][] = [];
  for (const p of pattern.properties) {
    if (p.type !== "Property" || p.computed || p.key.type !== "Identifier") return undefined;
    const at = member(path, p.key.name);
    const inner = p.value.type === "Identifier"
      ? [[p.value.name, { k: "path", path: at }] as [string, Sym]]
      : names(p.value, at);
    if (!inner) return undefined;
    out.push(...inner);
  }
  return out;
}

/**
 * `const { data, meta: m } = json;`, `const { data: { token } } = json;` and
 * `const [first, second] = json.items;`: each name a member or an element of
 * the value (at any depth), when the value is a response part and every name
 * is plain or a nested pattern of plain names (no default, no rest); anything
 * else is not translated.
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
 * const p = parseScript("const { rows, meta: m } = pm.response.json();");
 * if (!p.ok) throw new Error(p.why);
 * const ctx = { scope: new Map(), tests: new Map(), variable: () => ({ k: "lit" as const, value: undefined }) };
 * const names = destructured(p.program.body[0].declarations[0], ctx);
 * if (JSON.stringify(names) !== '[["rows",{"k":"path","path":"$.json.rows"}],["m",{"k":"path","path":"$.json.meta"}]]') throw new Error(JSON.stringify(names));
 * const q = parseScript("const [, second] = pm.response.json().items;");
 * const list = q.ok ? destructured(q.program.body[0].declarations[0], ctx) : undefined;
 * if (JSON.stringify(list) !== '[["second",{"k":"path","path":"$.json.items[1]"}]]') throw new Error(JSON.stringify(list));
 * ```
 */
export function destructured(d: Node, ctx: EvalContext): [string, Sym][] | undefined {
  const of = d.init ? evaluate(d.init, ctx, 0) : undefined;
  return of?.k === "path" ? names(d.id, of.path) : undefined;
}

/** The names a pattern gives under `path`, nested patterns read one member (or element) deeper. */
function names(pattern: Node, path: string): [string, Sym][] | undefined {
  if (pattern.type === "ArrayPattern") return elements(pattern, path);
  if (pattern.type !== "ObjectPattern") return undefined;
  const out: [string, Sym][] = [];
  for (const p of pattern.properties) {
    if (p.type !== "Property" || p.computed || p.key.type !== "Identifier") return undefined;
    const inner = bound(p.value, member(path, p.key.name));
    if (!inner) return undefined;
    out.push(...inner);
  }
  return out;
}

/** `[a, , c]`: each name the element at its position (a hole skips one). */
function elements(pattern: Node, path: string): [string, Sym][] | undefined {
  const out: [string, Sym][] = [];
  for (const [i, e] of (pattern.elements as (Node | null)[]).entries()) {
    if (e === null) continue;
    const inner = bound(e, `${path}[${i}]`);
    if (!inner) return undefined;
    out.push(...inner);
  }
  return out;
}

/** A plain name reads `at`; a nested pattern reads inside it. */
function bound(target: Node, at: string): [string, Sym][] | undefined {
  return target.type === "Identifier"
    ? [[target.name, { k: "path", path: at }]]
    : names(target, at);
}

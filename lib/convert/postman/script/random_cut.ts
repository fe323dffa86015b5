/**
 * Random text cut from a random number's digits, as collections make a short
 * unique name without a helper: `Math.random().toString(36).substring(2, 8)`
 * (six characters of base 36: `0`–`9` and `a`–`z`; `2` skips the leading
 * `0.`), and the same with `slice(2, 10)`, `substr(2, 6)` or base 16. Newman
 * sends such text (`6rvtcf`); the flow sends made hex of the same length,
 * `${RANDOM.HEX_n}`, whose characters base 36 and base 16 both hold. A cut
 * whose length is known only when the script runs, or another base, is not
 * said (the set is then named as before).
 *
 * @module
 */
import type { Node } from "./parse.ts";
import { randomNumber } from "./random_number.ts";
import type { Sym } from "./sym.ts";

/** The made hex generator's own bound (docs/expressions.md). */
const MAX_HEX = 4096;

const isName = (n: Node | undefined, name: string) => n?.type === "Identifier" && n.name === name;
const wholeLiteral = (n: Node | undefined): number | undefined =>
  n?.type === "Literal" && Number.isInteger(n.value) ? n.value : undefined;
/** `obj.name(…)`, not computed. */
const method = (n: Node | undefined, name: string) =>
  n?.type === "CallExpression" && n.callee.type === "MemberExpression" && !n.callee.computed &&
  isName(n.callee.property, name);

/** `Math.random().toString(16)` or `(36)`: a fraction's digits in a base whose digits hex holds. */
function randomDigitsText(n: Node): boolean {
  if (!method(n, "toString") || n.arguments.length !== 1) return false;
  const base = wholeLiteral(n.arguments[0]);
  const inner = n.callee.object;
  return (base === 16 || base === 36) && method(inner, "random") &&
    isName(inner.callee.object, "Math") && inner.arguments.length === 0;
}

/** How many characters `substring(a, b)`, `slice(a, b)` or `substr(a, n)` keeps, from `a` ≥ 2. */
function keptLength(cut: string, args: Node[]): number | undefined {
  const [from, to] = args.map(wholeLiteral);
  if (args.length !== 2 || from === undefined || to === undefined || from < 2) return undefined;
  const length = cut === "substr" ? to : to - from;
  return length >= 1 && length <= MAX_HEX ? length : undefined;
}

/**
 * Made hex for a cut of `Math.random().toString(36)`, else `undefined`.
 *
 * @example
 * ```ts
 * import { randomCut } from "./random_cut.ts";
 * import { parseScript } from "./parse.ts";
 * const of = (s: string) => {
 *   const p = parseScript(s);
 *   if (!p.ok) throw new Error(p.why);
 *   return randomCut(p.program.body[0].expression);
 * };
 * const made = of("Math.random().toString(36).substring(2, 8)");
 * if (made?.k !== "gen" || made.text !== "${RANDOM.HEX_6}") throw new Error(JSON.stringify(made));
 * if (of("Math.random().toString(36).slice(2)") || of("Math.random().toString(2).slice(2, 5)")) throw new Error();
 * ```
 */
export function randomCut(node: Node): Sym | undefined {
  if (node.type !== "CallExpression" || node.callee.type !== "MemberExpression") return undefined;
  const cut = ["substring", "slice", "substr"].find((m) => method(node, m));
  if (!cut || !randomDigitsText(node.callee.object)) return undefined;
  const length = keptLength(cut, node.arguments);
  return length === undefined ? undefined : { k: "gen", text: `\${RANDOM.HEX_${length}}` };
}

/**
 * What a script makes at random: a cut of a random number's digits
 * ({@linkcode randomCut}), else a number or a boolean (`random_number.ts`).
 *
 * @example
 * ```ts
 * import { randomMade } from "./random_cut.ts";
 * import { parseScript } from "./parse.ts";
 * const p = parseScript("Math.random() < 0.5");
 * if (!p.ok) throw new Error(p.why);
 * const lit = (n: { type: string; value?: unknown }) =>
 *   n.type === "Literal" ? { k: "lit" as const, value: n.value } : undefined;
 * if (randomMade(p.program.body[0].expression, lit)?.k !== "gen") throw new Error();
 * ```
 */
export function randomMade(node: Node, value: (n: Node) => Sym | undefined): Sym | undefined {
  return randomCut(node) ?? randomNumber(node, value);
}

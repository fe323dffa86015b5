/**
 * The shape of a cut of a random number's digits, `Math.random().toString(36)
 * .substring(2, 8)` (also `slice(2, 10)`, `substr(2, 6)`, base 16): its base
 * and how many characters it keeps, for `random_cut.ts` (made hex) and
 * `capitals.ts` (the same cut in upper case).
 *
 * @module
 */
import type { Node } from "./parse.ts";

/** The made hex generator's own bound (docs/expressions.md). */
const MAX_HEX = 4096;

const isName = (n: Node | undefined, name: string) => n?.type === "Identifier" && n.name === name;
const wholeLiteral = (n: Node | undefined): number | undefined =>
  n?.type === "Literal" && Number.isInteger(n.value) ? n.value : undefined;
/** `obj.name(…)`, not computed. */
const method = (n: Node | undefined, name: string) =>
  n?.type === "CallExpression" && n.callee.type === "MemberExpression" && !n.callee.computed &&
  isName(n.callee.property, name);

/** The base of `Math.random().toString(16)` or `(36)`: a fraction's digits in a base whose digits hex holds. */
function randomDigitsBase(n: Node): number | undefined {
  if (!method(n, "toString") || n.arguments.length !== 1) return undefined;
  const base = wholeLiteral(n.arguments[0]);
  const inner = n.callee.object;
  return (base === 16 || base === 36) && method(inner, "random") &&
      isName(inner.callee.object, "Math") && inner.arguments.length === 0
    ? base
    : undefined;
}

/** How many characters `substring(a, b)`, `slice(a, b)` or `substr(a, n)` keeps, from `a` ≥ 2. */
function keptLength(cut: string, args: Node[]): number | undefined {
  const [from, to] = args.map(wholeLiteral);
  if (args.length !== 2 || from === undefined || to === undefined || from < 2) return undefined;
  const length = cut === "substr" ? to : to - from;
  return length >= 1 && length <= MAX_HEX ? length : undefined;
}

/**
 * The base and the kept length of a cut of `Math.random().toString(16 or 36)`, else `undefined`.
 *
 * @example
 * ```ts
 * import { cutOf } from "./digits_cut.ts";
 * import { parseScript } from "./parse.ts";
 * const p = parseScript("Math.random().toString(36).slice(2, 10)");
 * if (!p.ok) throw new Error(p.why);
 * const cut = cutOf(p.program.body[0].expression);
 * if (cut?.base !== 36 || cut.length !== 8) throw new Error(JSON.stringify(cut));
 * ```
 */
export function cutOf(node: Node): { base: number; length: number } | undefined {
  if (node.type !== "CallExpression" || node.callee.type !== "MemberExpression") return undefined;
  const cut = ["substring", "slice", "substr"].find((m) => method(node, m));
  const base = cut ? randomDigitsBase(node.callee.object) : undefined;
  const length = base === undefined ? undefined : keptLength(cut!, node.arguments);
  return length === undefined ? undefined : { base: base!, length };
}

/**
 * Numbers and booleans a script makes with `Math.random()` itself, as booking and sign-up
 * collections write them without lodash: `Math.floor(Math.random() * 100) + 1` (a whole number
 * from 1 to 100), `min + Math.trunc(Math.random() * (max - min + 1))`, `Math.round(Math.random() *
 * 9)`, and `Math.random() < 0.5` (true or false). Each is the made value of its kind: a whole
 * number in the range is `${RANDOM.DIGITS_n}` with the most digits that stay in it (the rule of
 * lodash's `_.random`), a comparison with a fraction is `${RANDOM.BOOL}`. A range no count of
 * digits stays in (`Math.floor(Math.random() * 2)`, 0 or 1), or one whose top is known only when
 * the script runs (`Math.floor(Math.random() * list.length)`, an index into a response's list), is
 * its least value: one the script could have drawn, the same in every run.
 *
 * @module
 */
import type { Node } from "./parse.ts";
import type { Sym } from "./sym.ts";

/** The generator's own bound (docs/expressions.md). */
const MAX_DIGITS = 15;

/**
 * `${RANDOM.DIGITS_n}` with the most digits whose every value lies from `min` to `max`
 * (n digits, the first not 0); undefined when no count does or a bound is no whole number.
 *
 * @example
 * ```ts
 * import { wholeInRange } from "./random_number.ts";
 * const made = wholeInRange(1, 100);
 * if (made?.k !== "gen" || made.text !== "${RANDOM.DIGITS_2}") throw new Error(JSON.stringify(made));
 * if (wholeInRange(0, 1) !== undefined || wholeInRange(0.5, 9) !== undefined) throw new Error();
 * ```
 */
export function wholeInRange(low: unknown, high: unknown): Sym | undefined {
  if (!Number.isSafeInteger(low) || !Number.isSafeInteger(high)) return undefined;
  const min = Math.min(low as number, high as number);
  const max = Math.max(low as number, high as number);
  for (let n = MAX_DIGITS; n >= 1; n--) {
    if (10 ** (n - 1) >= min && 10 ** n - 1 <= max) {
      return { k: "gen", text: `\${RANDOM.DIGITS_${n}}` };
    }
  }
  return undefined;
}

const isName = (n: Node | undefined, name: string) => n?.type === "Identifier" && n.name === name;

/** `Math.random()`. */
const isRandom = (n: Node | undefined) =>
  n?.type === "CallExpression" && n.arguments.length === 0 &&
  n.callee.type === "MemberExpression" && !n.callee.computed &&
  isName(n.callee.object, "Math") && isName(n.callee.property, "random");

/** The other factor of `Math.random() * x` or `x * Math.random()`, else undefined. */
function scale(n: Node | undefined): Node | undefined {
  if (n?.type !== "BinaryExpression" || n.operator !== "*") return undefined;
  return isRandom(n.left) ? n.right : isRandom(n.right) ? n.left : undefined;
}

/** Whether the number a node is known to be now (a literal, a local holding one) is whole. */
const wholeOf = (s: Sym | undefined) =>
  s?.k === "lit" && Number.isSafeInteger(s.value) ? s.value as number : undefined;

/**
 * `Math.floor|trunc|round(Math.random() * n)`: its range, its top unknown (`undefined`) when `n`
 * is known only when the script runs (a response list's length); else undefined.
 */
function wholeRange(
  n: Node,
  value: (n: Node) => Sym | undefined,
): [number, number | undefined] | undefined {
  if (n.type !== "CallExpression" || n.arguments.length !== 1) return undefined;
  const c = n.callee;
  if (c.type !== "MemberExpression" || c.computed || !isName(c.object, "Math")) return undefined;
  const round = c.property.name;
  if (!["floor", "trunc", "round"].includes(round)) return undefined;
  const factor = scale(n.arguments[0]);
  if (!factor) return undefined;
  const known = value(factor);
  const times = wholeOf(known);
  if (known?.k === "lit" && (times === undefined || times < 1)) return undefined;
  return [0, times === undefined ? undefined : round === "round" ? times : times - 1];
}

/**
 * A whole number drawn from `min` to `max`: made digits where a count of them stays inside
 * ({@linkcode wholeInRange}), else the least value, one the script could have drawn, the same in
 * every run (`max` unknown: an index into a list the response gives, whose first is `min`).
 */
function drawn(min: number, max: number | undefined): Sym {
  return (max === undefined ? undefined : wholeInRange(min, max)) ?? { k: "lit", value: min };
}

/**
 * The made value of a node that makes a number or a boolean with `Math.random()`, else
 * undefined. `value` evaluates a node to what is known of it now.
 *
 * @example
 * ```ts
 * import { randomNumber } from "./random_number.ts";
 * import { parseScript } from "./parse.ts";
 * const of = (src: string) => {
 *   const p = parseScript(src);
 *   if (!p.ok) throw new Error(p.why);
 *   const lit = (n: { type: string; value?: unknown }) =>
 *     n.type === "Literal" ? { k: "lit" as const, value: n.value } : undefined;
 *   return randomNumber(p.program.body[0].expression, lit);
 * };
 * const price = of("Math.floor(Math.random() * 100) + 1");
 * if (price?.k !== "gen" || price.text !== "${RANDOM.DIGITS_2}") throw new Error(JSON.stringify(price));
 * const paid = of("Math.random() < 0.5");
 * if (paid?.k !== "gen" || paid.text !== "${RANDOM.BOOL}") throw new Error(JSON.stringify(paid));
 * const bit = of("Math.floor(Math.random() * 2)");
 * if (bit?.k !== "lit" || bit.value !== 0 || of("Math.floor(Math.random() * 0)")) throw new Error();
 * ```
 */
export function randomNumber(node: Node, value: (n: Node) => Sym | undefined): Sym | undefined {
  const alone = wholeRange(node, value);
  if (alone) return drawn(alone[0], alone[1]);
  if (node.type !== "BinaryExpression") return undefined;
  return node.operator === "+" ? shifted(node, value) : chance(node, value);
}

/** `Math.random() < p` (or `<=`, `>`, `>=`) with a fraction `p`: either answer can come. */
function chance(node: Node, value: (n: Node) => Sym | undefined): Sym | undefined {
  if (!["<", "<=", ">", ">="].includes(node.operator)) return undefined;
  const other = isRandom(node.left) ? node.right : isRandom(node.right) ? node.left : undefined;
  const p = other && value(other);
  const fraction = p?.k === "lit" && typeof p.value === "number" && p.value > 0 && p.value < 1;
  return fraction ? { k: "gen", text: "${RANDOM.BOOL}" } : undefined;
}

/** `Math.floor(Math.random() * n) + m` (either side): the range moved by `m`. */
function shifted(node: Node, value: (n: Node) => Sym | undefined): Sym | undefined {
  const left = wholeRange(node.left, value);
  const range = left ?? wholeRange(node.right, value);
  const shift = range && wholeOf(value(left ? node.right : node.left));
  if (shift === undefined) return undefined;
  return drawn(range![0] + shift, range![1] === undefined ? undefined : range![1] + shift);
}

/**
 * The whole numbers a draw can give, `[min, max]`: `Math.floor(Math.random() * n) + m` (either
 * side, `trunc`, `round`) and lodash's `_.random(min, max)` of whole bounds; undefined for any
 * other node or a top known only when the script runs.
 *
 * @example
 * ```ts
 * import { drawRange } from "./random_number.ts";
 * import { parseScript } from "./parse.ts";
 * const of = (src: string) => {
 *   const p = parseScript(src);
 *   if (!p.ok) throw new Error(p.why);
 *   const lit = (n: { type: string; value?: unknown }) =>
 *     n.type === "Literal" ? { k: "lit" as const, value: n.value } : undefined;
 *   return drawRange(p.program.body[0].expression, lit);
 * };
 * if (String(of("Math.floor(Math.random() * 10) + 1")) !== "1,10") throw new Error();
 * if (String(of("_.random(5, 1)")) !== "1,5" || of("Math.random()") !== undefined) throw new Error();
 * ```
 */
export function drawRange(
  node: Node,
  value: (n: Node) => Sym | undefined,
): [number, number] | undefined {
  const lodash = lodashRange(node, value);
  if (lodash !== null) return lodash;
  const alone = wholeRange(node, value);
  if (alone) return alone[1] === undefined ? undefined : [alone[0], alone[1]];
  if (node.type !== "BinaryExpression" || node.operator !== "+") return undefined;
  const left = wholeRange(node.left, value);
  const range = left ?? wholeRange(node.right, value);
  const shift = range && wholeOf(value(left ? node.right : node.left));
  if (shift === undefined || range![1] === undefined) return undefined;
  return [range![0] + shift, range![1] + shift];
}

/** `_.random(min, max)` of whole bounds known now: its range; `null` when the node is no such call. */
function lodashRange(node: Node, value: (n: Node) => Sym | undefined) {
  const lodash = node.type === "CallExpression" && node.arguments.length === 2 &&
    node.callee.type === "MemberExpression" && !node.callee.computed &&
    isName(node.callee.object, "_") && isName(node.callee.property, "random");
  if (!lodash) return null;
  const [low, high] = node.arguments.map((a: Node) => wholeOf(value(a)));
  if (low === undefined || high === undefined) return undefined;
  return [Math.min(low, high), Math.max(low, high)] as [number, number];
}

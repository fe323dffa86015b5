/**
 * Random capitals a script makes with `.toUpperCase()`, as collections make a
 * code a server takes in capitals only: `Math.random().toString(36)
 * .substring(2, 8).toUpperCase()` (Newman sends capitals and digits) or a letters-only
 * helper's text made upper case. The flow sends `${RANDOM.UPPER_n}`, capitals
 * of the same length: base-36 digits in upper case hold every capital, so it
 * is text the script could have made. A base-16 cut in upper case, or made
 * hex upper-cased (`0`–`9`, `A`–`F`; Newman sent `47B62DFD`), is
 * `${RANDOM.DIGITS_n}`: digits are upper-case hex, so it too is text the
 * script could have made, as a helper over `"0123456789ABCDEF"` already was
 * (random_text.ts); longer than the made digits' bound (15), it stays named.
 *
 * @module
 */
import type { Node } from "./parse.ts";
import { cutOf } from "./digits_cut.ts";
import type { Sym } from "./sym.ts";

/** `${RANDOM.ALPHA_n}` or `${RANDOM.UPPER_n}` exactly: made letters, whose capitals are `UPPER_n`. */
const LETTERS = /^\$\{RANDOM\.(?:ALPHA|UPPER)_(\d+)\}$/;
/** `${RANDOM.HEX_n}` exactly: made hex, whose capitals digits stand for. */
const HEX = /^\$\{RANDOM\.HEX_(\d+)\}$/;
/** The made digits' own bound (docs/expressions.md). */
const MAX_DIGITS = 15;

/** `${RANDOM.DIGITS_n}`: upper-case hex of length `n` whose letters happen to be none. */
const hexDigits = (n: number): Sym | undefined =>
  n <= MAX_DIGITS ? { k: "gen", text: `\${RANDOM.DIGITS_${n}}` } : undefined;

/**
 * `${RANDOM.UPPER_n}` for `x.toUpperCase()` where `x` is a base-36 cut of a
 * random number or made letters (`value` evaluates `x`), else `undefined`.
 *
 * @example
 * ```ts
 * import { randomCapitals } from "./capitals.ts";
 * import { parseScript } from "./parse.ts";
 * const of = (s: string) => {
 *   const p = parseScript(s);
 *   if (!p.ok) throw new Error(p.why);
 *   return randomCapitals(p.program.body[0].expression, () => undefined);
 * };
 * const made = of("Math.random().toString(36).substring(2, 8).toUpperCase()");
 * if (made?.k !== "gen" || made.text !== "${RANDOM.UPPER_6}") throw new Error(JSON.stringify(made));
 * const hex = of("Math.random().toString(16).substring(2, 8).toUpperCase()");
 * if (hex?.k !== "gen" || hex.text !== "${RANDOM.DIGITS_6}") throw new Error(JSON.stringify(hex));
 * if (of("'ab'.toUpperCase()")) throw new Error();
 * ```
 */
export function randomCapitals(node: Node, value: (n: Node) => Sym | undefined): Sym | undefined {
  const callee = node.type === "CallExpression" ? node.callee : undefined;
  if (callee?.type !== "MemberExpression" || callee.computed || node.arguments.length !== 0) {
    return undefined;
  }
  if (callee.property.type !== "Identifier" || callee.property.name !== "toUpperCase") {
    return undefined;
  }
  const cut = cutOf(callee.object);
  if (cut) {
    return cut.base === 36
      ? { k: "gen", text: `\${RANDOM.UPPER_${cut.length}}` }
      : hexDigits(cut.length);
  }
  const inner = value(callee.object);
  const hex = inner?.k === "gen" ? HEX.exec(inner.text)?.[1] : undefined;
  if (hex !== undefined) return hexDigits(Number(hex));
  const n = inner?.k === "gen" ? LETTERS.exec(inner.text)?.[1] : undefined;
  return n === undefined ? undefined : { k: "gen", text: `\${RANDOM.UPPER_${n}}` };
}

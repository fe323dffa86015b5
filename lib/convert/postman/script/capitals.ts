/**
 * Random capitals a script makes with `.toUpperCase()`, as collections make a
 * code a server takes in capitals only: `Math.random().toString(36)
 * .substring(2, 8).toUpperCase()` (Newman sends capitals and digits) or a letters-only
 * helper's text made upper case. The flow sends `${RANDOM.UPPER_n}`, capitals
 * of the same length: base-36 digits in upper case hold every capital, so it
 * is text the script could have made. A base-16 cut in upper case (`0`–`9`,
 * `A`–`F`) has no such generator and stays named, as before.
 *
 * @module
 */
import type { Node } from "./parse.ts";
import { cutOf } from "./digits_cut.ts";
import type { Sym } from "./sym.ts";

/** `${RANDOM.ALPHA_n}` or `${RANDOM.UPPER_n}` exactly: made letters, whose capitals are `UPPER_n`. */
const LETTERS = /^\$\{RANDOM\.(?:ALPHA|UPPER)_(\d+)\}$/;

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
 * if (of("Math.random().toString(16).substring(2, 8).toUpperCase()") || of("'ab'.toUpperCase()")) throw new Error();
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
    return cut.base === 36 ? { k: "gen", text: `\${RANDOM.UPPER_${cut.length}}` } : undefined;
  }
  const inner = value(callee.object);
  const n = inner?.k === "gen" ? LETTERS.exec(inner.text)?.[1] : undefined;
  return n === undefined ? undefined : { k: "gen", text: `\${RANDOM.UPPER_${n}}` };
}

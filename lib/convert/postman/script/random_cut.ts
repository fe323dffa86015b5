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
import { randomCapitals } from "./capitals.ts";
import { cutOf } from "./digits_cut.ts";
import { randomNumber } from "./random_number.ts";
import { timesSample } from "./times_sample.ts";
import type { Sym } from "./sym.ts";

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
  const length = cutOf(node)?.length;
  return length === undefined ? undefined : { k: "gen", text: `\${RANDOM.HEX_${length}}` };
}

/**
 * What a script makes at random: capitals (`capitals.ts`), lodash's picks
 * (`times_sample.ts`), a cut of a random number's digits
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
  return randomCapitals(node, value) ?? timesSample(node, value) ?? randomCut(node) ??
    randomNumber(node, value);
}

/**
 * Random text a script picks with lodash, one character at a time:
 * `_.times(6, () => _.sample('ABCDEFGHIJKLMNOPQRSTUVWXYZ')).join('')` (or a
 * `function () { return _.sample(chars); }`). Newman's lodash (3.10) samples
 * a text's characters and `_.times` calls the function that many times, so
 * Newman sends six characters of the alphabet. A known count and a literal
 * alphabet make the same made value as a helper's loop over that alphabet
 * (`random_text.ts`): `${RANDOM.UPPER_6}` here; a count or alphabet known only
 * when the script runs is not said.
 *
 * @module
 */
import type { Node } from "./parse.ts";
import { randomTextCall } from "./random_text.ts";
import type { Sym } from "./sym.ts";

const isName = (n: Node | undefined, name: string) => n?.type === "Identifier" && n.name === name;
/** `_.name(…)`, not computed. */
const lodash = (n: Node | undefined, name: string) =>
  n?.type === "CallExpression" && n.callee.type === "MemberExpression" && !n.callee.computed &&
  isName(n.callee.object, "_") && isName(n.callee.property, name);

/** What a function without parameters gives: its arrow's expression or its one `return`'s. */
function returned(fn: Node | undefined): Node | undefined {
  if (fn?.type !== "ArrowFunctionExpression" && fn?.type !== "FunctionExpression") return undefined;
  if (fn.params.length !== 0 || fn.async || fn.generator) return undefined;
  if (fn.body.type !== "BlockStatement") return fn.body;
  const [only] = fn.body.body;
  return fn.body.body.length === 1 && only.type === "ReturnStatement" ? only.argument : undefined;
}

/**
 * The made text for `_.times(n, () => _.sample(alphabet)).join('')`, else
 * `undefined`; `value` evaluates the count and the alphabet.
 *
 * @example
 * ```ts
 * import { timesSample } from "./times_sample.ts";
 * import { parseScript } from "./parse.ts";
 * const p = parseScript("_.times(6, () => _.sample('ABCDEFGHIJKLMNOPQRSTUVWXYZ')).join('')");
 * if (!p.ok) throw new Error(p.why);
 * const lit = (n: { type: string; value?: unknown }) =>
 *   n.type === "Literal" ? { k: "lit" as const, value: n.value } : undefined;
 * const made = timesSample(p.program.body[0].expression, lit);
 * if (made?.k !== "gen" || made.text !== "${RANDOM.UPPER_6}") throw new Error(JSON.stringify(made));
 * ```
 */
export function timesSample(node: Node, value: (n: Node) => Sym | undefined): Sym | undefined {
  const times = joined(node);
  if (!times || !lodash(times, "times") || times.arguments.length !== 2) return undefined;
  const sample = returned(times.arguments[1]);
  if (!sample || !lodash(sample, "sample") || sample.arguments.length !== 1) return undefined;
  const count = value(times.arguments[0]);
  const alphabet = value(sample.arguments[0]);
  if (alphabet?.k !== "lit" || typeof alphabet.value !== "string" || alphabet.value.length < 2) {
    return undefined;
  }
  return randomTextCall({ alphabet: alphabet.value, count: { param: 0 } }, [count]);
}

/** What `x.join('')` joins, `x`; `undefined` for any other node. */
function joined(node: Node): Node | undefined {
  const callee = node.type === "CallExpression" ? node.callee : undefined;
  if (callee?.type !== "MemberExpression" || callee.computed || !isName(callee.property, "join")) {
    return undefined;
  }
  const glue = node.arguments[0];
  return node.arguments.length === 1 && glue.type === "Literal" && glue.value === ""
    ? callee.object
    : undefined;
}

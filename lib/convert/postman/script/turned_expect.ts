/**
 * An equality written the other way round: the value the script knows as the
 * subject and the response part as the expected value,
 * `pm.expect(pm.environment.get("firstname")).to.eql(json.firstname)`, as
 * collections check that a read returns what the create sent. chai's `eql`
 * and `equal` are symmetric, so it is the check
 * `pm.expect(json.firstname).to.eql(pm.environment.get("firstname"))` makes:
 * the response part compared with the variable. Only a chain of joining words
 * (`to`, `be`, `deep`, `not`, …) ending in one equality is turned; anything
 * else is read as written.
 *
 * @module
 */
import { type EvalContext, evaluate } from "./eval.ts";
import { variableText } from "./concat.ts";
import type { Node } from "./parse.ts";
import type { Sym } from "./sym.ts";

/** One link of a chai chain: a word, and its arguments when it is called. */
interface Link {
  word: string;
  args?: Node[];
}

const EQUAL = new Set(["equal", "equals", "eq", "eql", "eqls"]);
/** Words that join a chain and change no comparison but its sense (`not`). */
const JOINING = new Set(
  "to be been is that which and has have deep not still same does itself should".split(" "),
);

/**
 * The response part as the subject and the known value as the expected one,
 * when `pm.expect(known).…eql(part)` is written; `undefined` otherwise.
 *
 * @example
 * ```ts
 * import { turnedEquality } from "./turned_expect.ts";
 * import { parseScript } from "./parse.ts";
 * const p = parseScript('pm.expect(pm.environment.get("a")).to.eql(pm.response.json().a)');
 * if (!p.ok) throw new Error(p.why);
 * const call = p.program.body[0].expression;
 * const root = call.callee.object.object;
 * const links = [{ word: "to" }, { word: "eql", args: call.arguments }];
 * const ctx = { scope: new Map(), tests: new Map(), variable: () => ({ k: "var" as const, name: "a", expr: "${vars.a}" }) };
 * const turned = turnedEquality(root.arguments[0], links, ctx);
 * if (turned?.subject.k !== "path" || turned.subject.path !== "$.json.a") throw new Error(JSON.stringify(turned));
 * if (turned.links[1].args?.[0] !== root.arguments[0]) throw new Error();
 * ```
 */
export function turnedEquality(
  subject: Node | undefined,
  links: Link[],
  ctx: EvalContext,
): { subject: Sym; links: Link[] } | undefined {
  const last = links.at(-1);
  if (!subject || !last || !EQUAL.has(last.word) || last.args?.length !== 1) return undefined;
  if (!links.slice(0, -1).every((l) => !l.args && JOINING.has(l.word))) return undefined;
  const expected = evaluate(last.args[0], ctx, 1);
  // A response part, not a pseudo-path (`indexOf:…`) nor the same value on both sides.
  if (expected?.k !== "path" || !expected.path.startsWith("$") || expected.path.includes(":")) {
    return undefined;
  }
  const known = evaluate(subject, ctx, 1);
  if (known?.k !== "lit" && (!known || variableText(known) === undefined)) return undefined;
  return {
    subject: expected,
    links: [...links.slice(0, -1), { word: last.word, args: [subject] }],
  };
}

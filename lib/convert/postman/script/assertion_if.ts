/**
 * An assertion compared with a value in an `if`, as scripts write it meaning to read what the
 * assertion names: `if (pm.response.to.have.header("X-Mode") === "fast") { … }`. In Postman's
 * sandbox an assertion gives chai's assertion object, never a text or a number, so `===` is false
 * and `!==` true whatever the response holds; the assertion itself throws when it fails, which
 * stops the script and fails the run. Such an `if` is the assertion, written alone (an unnamed
 * check), then the branch the comparison always takes.
 *
 * @module
 */
import type { Node } from "./parse.ts";

const isName = (n: Node | undefined, name: string) => n?.type === "Identifier" && n.name === name;

/** `pm.expect(…)`. */
const isExpect = (n: Node) =>
  n.type === "CallExpression" && n.callee.type === "MemberExpression" && !n.callee.computed &&
  isName(n.callee.object, "pm") && isName(n.callee.property, "expect");

/**
 * Whether `n` is a called assertion chain: `pm.response.to.….m(…)` or `pm.expect(…).to.….m(…)`,
 * whose value is chai's assertion object.
 */
function isAssertion(n: Node): boolean {
  if (n.type !== "CallExpression") return false;
  const names: string[] = [];
  let at: Node = n.callee;
  for (let depth = 0; depth < 32; depth++) {
    if (at.type === "CallExpression") {
      if (isExpect(at)) return names.at(-1) === "to";
      at = at.callee;
    } else if (at.type === "MemberExpression" && !at.computed) {
      names.push(at.property.name);
      at = at.object;
    } else {
      return isName(at, "pm") && names.at(-1) === "response" && names.at(-2) === "to";
    }
  }
  return false;
}

/**
 * The statements an `if` comparing an assertion with a literal stands for (the assertion, then
 * the branch taken, if any), else undefined.
 *
 * @example
 * ```ts
 * import { assertionIf } from "./assertion_if.ts";
 * import { parseScript } from "./parse.ts";
 * const p = parseScript("if (pm.response.to.have.header('A') !== 'x') { a(); } else { b(); }");
 * if (!p.ok) throw new Error(p.why);
 * const out = assertionIf(p.program.body[0]);
 * if (out?.length !== 2 || out[1].body[0].expression.callee.name !== "a") throw new Error();
 * const q = parseScript("if (pm.response.headers.get('A') === 'x') a();");
 * if (!q.ok || assertionIf(q.program.body[0]) !== undefined) throw new Error();
 * ```
 */
export function assertionIf(node: Node): Node[] | undefined {
  const test = node.test;
  if (test?.type !== "BinaryExpression" || !["===", "!=="].includes(test.operator)) return;
  const [side, other] = isAssertion(test.left) ? [test.left, test.right] : [test.right, test.left];
  if (!isAssertion(side) || other.type !== "Literal") return undefined;
  const asserted = {
    type: "ExpressionStatement",
    start: side.start,
    end: side.end,
    expression: side,
  };
  const branch = test.operator === "!==" ? node.consequent : node.alternate;
  return branch ? [asserted, branch] : [asserted];
}

/**
 * A block's statements, each `if` that compares an assertion replaced by what it stands for
 * ({@linkcode assertionIf}).
 *
 * @example
 * ```ts
 * import { unfoldAssertionIfs } from "./assertion_if.ts";
 * import { parseScript } from "./parse.ts";
 * const p = parseScript("if (pm.response.to.have.status(200) === 200) a(); b();");
 * if (!p.ok) throw new Error(p.why);
 * if (unfoldAssertionIfs(p.program.body).length !== 2) throw new Error();
 * ```
 */
export function unfoldAssertionIfs(body: Node[]): Node[] {
  return body.flatMap((s) => s.type === "IfStatement" ? assertionIf(s) ?? [s] : [s]);
}

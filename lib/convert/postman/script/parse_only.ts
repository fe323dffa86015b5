/**
 * A `pm.test` whose body holds no check but parses the answer
 * (`const json = pm.response.json();`, `JSON.parse(responseBody)`), then
 * perhaps logs it or keeps a value: Newman passes it when the body does not
 * throw, that is when the answer is JSON. That is the check flowrun writes.
 *
 * @module
 */
import { dotted } from "./eval.ts";
import type { Node } from "./parse.ts";
import type { Cond } from "./sym.ts";

/** `pm.response.json()`, `JSON.parse(responseBody)`, `JSON.parse(pm.response.text())`. */
function parses(n: Node | null | undefined): boolean {
  if (n?.type !== "CallExpression") return false;
  const callee = dotted(n.callee);
  if (callee === "pm.response.json") return n.arguments.length === 0;
  const [arg] = n.arguments;
  const text = arg?.type === "CallExpression" && arg.arguments.length === 0
    ? `${dotted(arg.callee)}()`
    : dotted(arg);
  return callee === "JSON.parse" && n.arguments.length === 1 &&
    (text === "responseBody" || text === "pm.response.text()");
}

/**
 * The check that the answer is JSON when one of `body`'s statements parses
 * it, else undefined.
 *
 * @example
 * ```ts
 * import { parsedAnswer } from "./parse_only.ts";
 * import { parseScript } from "./parse.ts";
 * const p = parseScript("const j = pm.response.json(); console.log(j);");
 * if (!p.ok || parsedAnswer(p.program.body)?.path !== "$.json") throw new Error();
 * ```
 */
export function parsedAnswer(body: Node[]): Cond | undefined {
  const parsed = body.some((s) =>
    s.type === "VariableDeclaration"
      ? s.declarations.some((d: Node) => parses(d.init))
      : s.type === "ExpressionStatement" && parses(s.expression)
  );
  return parsed ? { path: "$.json", op: "exists", value: true } : undefined;
}

/**
 * A URL a pre-request script writes into its own request, as data-driven
 * collections build a search's URL from variables:
 * `pm.request.url = pm.environment.get("baseUrl") + "/booking?firstname=" + name`
 * (text, a template, a `let` built up with `+=`) and
 * `pm.request.url.update("{{baseUrl}}/booking/{{id}}")`. Newman sends what the
 * script wrote, not the collection's URL; when that text is known now or is
 * made of Postman variables (and of the time, request_query.ts's `queryText`),
 * the step sends it. Anything else stays a comment, and the summary names the
 * request as one sent as the collection holds it.
 *
 * @module
 */
import { dotted, type EvalContext, evaluate } from "./eval.ts";
import type { Node } from "./parse.ts";
import { queryText } from "./request_query.ts";

/**
 * The URL (Postman text) `e` writes into the request; `undefined` when it
 * cannot be said; `null` when `e` writes no URL.
 *
 * @example
 * ```ts
 * import { writtenUrl } from "./request_url.ts";
 * import { parseScript } from "./parse.ts";
 * const p = parseScript('pm.request.url = pm.environment.get("base") + "/a?x=" + pm.environment.get("x")');
 * if (!p.ok) throw new Error(p.why);
 * const ctx = { scope: new Map(), tests: new Map(), variable: (n: string) => ({ k: "var" as const, name: n, expr: "" }) };
 * const url = writtenUrl(p.program.body[0].expression, ctx);
 * if (url !== "{{base}}/a?x={{x}}") throw new Error(String(url));
 * ```
 */
export function writtenUrl(e: Node, ctx: EvalContext): string | undefined | null {
  let value: Node;
  if (e.type === "AssignmentExpression") {
    if (dotted(e.left) !== "pm.request.url") return null;
    if (e.operator !== "=") return undefined;
    value = e.right;
  } else if (e.type === "CallExpression" && dotted(e.callee) === "pm.request.url.update") {
    if (e.arguments.length !== 1 || !e.arguments[0]) return undefined;
    value = e.arguments[0];
  } else return null;
  const text = queryText(evaluate(value, ctx, 0));
  // Only a string is a URL Postman parses as written; an object (`{ host, path }`) is not said here.
  return text !== undefined && text !== "" ? text : undefined;
}

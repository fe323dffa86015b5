/**
 * A value a `pm.test`'s function returns (`return 'accessToken' in data.jwt;`):
 * Postman ignores it, so the test fails only when working the value out
 * throws. What throws on a response part is said as checks: `in` needs an
 * object or a list on its right (`container`, written as a group by
 * checks_yaml.ts), and reading a member needs its owner there and not `null`.
 *
 * @module
 */
import { type EvalContext, evaluate } from "./eval.ts";
import type { Node } from "./parse.ts";
import type { Cond } from "./sym.ts";

/** A part `in` accepts: an object or a list (checks_yaml.ts writes it as a group on its type). */
export const CONTAINER = "container";

/** Comparisons and arithmetic, which throw only where their operands do. */
const PLAIN = new Set([
  "===",
  "!==",
  "==",
  "!=",
  "<",
  "<=",
  ">",
  ">=",
  "+",
  "-",
]);

/** The response path `n` reads, if it reads one. */
function partOf(n: Node, ctx: EvalContext): string | undefined {
  const sym = evaluate(n, ctx, 0);
  return sym?.k === "path" && sym.path.startsWith("$.json") ? sym.path : undefined;
}

/** Whether what `n` needs not to throw can be said: each need pushed onto `out`. */
function needs(n: Node, ctx: EvalContext, out: Cond[]): boolean {
  switch (n.type) {
    case "Literal":
      return true;
    case "Identifier":
      // A name this script declared reads a value; any other may not exist and throw.
      return ctx.scope.has(n.name);
    case "UnaryExpression":
      return n.operator === "!" && needs(n.argument, ctx, out);
    case "BinaryExpression":
      return binaryNeeds(n, ctx, out);
    case "MemberExpression":
      return memberNeeds(n, ctx, out);
  }
  return false;
}

/** `a in b` needs `b` an object or a list; a comparison, what its operands need. */
function binaryNeeds(n: Node, ctx: EvalContext, out: Cond[]): boolean {
  if (!needs(n.left, ctx, out)) return false;
  if (PLAIN.has(n.operator)) return needs(n.right, ctx, out);
  const right = n.operator === "in" ? partOf(n.right, ctx) : undefined;
  if (!right || !needs(n.right, ctx, out)) return false;
  out.push({ path: right, op: CONTAINER, value: true });
  return true;
}

/** `a.b` needs `a` there and not `null` (a string's member is read without a throw). */
function memberNeeds(n: Node, ctx: EvalContext, out: Cond[]): boolean {
  const owner = partOf(n.object, ctx);
  if (!owner || (n.computed && n.property.type !== "Literal")) return false;
  if (n.object.type === "MemberExpression" && !needs(n.object, ctx, out)) return false;
  out.push({ path: owner, op: "exists", value: true }, {
    path: owner,
    op: "notEquals",
    value: null,
  });
  return true;
}

/** Whether `inner` lies under `outer` (`$.json.a.b` under `$.json.a`). */
const under = (inner: string, outer: string) =>
  inner.length > outer.length && inner.startsWith(outer) && /^[.[]/.test(inner.slice(outer.length));

/**
 * The checks that hold when working out `value` does not throw, or undefined
 * when what it needs cannot be said. A part under another one checked is
 * there only when its owner is: the owner's check is dropped.
 *
 * @example
 * ```ts
 * import { returnedChecks } from "./returned.ts";
 * import { parseScript } from "./parse.ts";
 * const p = parseScript("'token' in data.jwt");
 * if (!p.ok) throw new Error(p.why);
 * const ctx = { scope: new Map([["data", { k: "path" as const, path: "$.json.data" }]]), tests: new Map(), variable: () => undefined };
 * const checks = returnedChecks(p.program.body[0].expression, ctx);
 * if (JSON.stringify(checks) !== '[{"path":"$.json.data.jwt","op":"container","value":true}]') throw new Error(JSON.stringify(checks));
 * ```
 */
export function returnedChecks(value: Node, ctx: EvalContext): Cond[] | undefined {
  const out: Cond[] = [];
  if (!needs(value, ctx, out)) return undefined;
  const deepest = out.filter((c) => !out.some((d) => under(d.path, c.path)));
  return deepest.filter((c, i) =>
    deepest.findIndex((d) => d.path === c.path && d.op === c.op) === i
  );
}

/**
 * A function body's statements that run before its last one, and that last
 * one when it returns a value (`return x;`), else all of them.
 *
 * @example
 * ```ts
 * import { splitReturn } from "./returned.ts";
 * import { parseScript } from "./parse.ts";
 * const p = parseScript("f(); return 1;");
 * if (!p.ok) throw new Error(p.why);
 * const [run, value] = splitReturn(p.program.body);
 * if (run.length !== 1 || value?.type !== "ReturnStatement") throw new Error();
 * ```
 */
export function splitReturn(body: Node[]): [Node[], Node | undefined] {
  const last = body.at(-1);
  return last?.type === "ReturnStatement" && last.argument
    ? [body.slice(0, -1), last]
    : [body, undefined];
}

/**
 * A `pm.test` function's statements: a block's own; a concise arrow's body as
 * one statement, run when it is a call or a chain of `pm`'s
 * (`() => pm.expect(x).to.eql(1)`), else returned (`() => "id" in json`).
 *
 * @example
 * ```ts
 * import { testStatements } from "./returned.ts";
 * import { parseScript } from "./parse.ts";
 * const source = "() => 'id' in json";
 * const p = parseScript(source);
 * if (!p.ok) throw new Error(p.why);
 * const [s] = testStatements(p.program.body[0].expression.body, source);
 * if (s.type !== "ReturnStatement") throw new Error(s.type);
 * ```
 */
export function testStatements(body: Node, source: string): Node[] {
  if (body.type === "BlockStatement") return body.body;
  const { start, end } = body;
  const run = body.type === "CallExpression" || source.slice(start, end).startsWith("pm.");
  return [
    run
      ? { type: "ExpressionStatement", expression: body, start, end }
      : { type: "ReturnStatement", argument: body, start, end },
  ];
}

/**
 * Checks written in a loop over a response list (`json.items.forEach(item
 * => pm.expect(item.id).to.be.a("number"))`, `for (const item of
 * json.items)`, `_.each(json.items, …)`) become a check group over every
 * element: `{at: $.json.items[*], checks: [...]}`, whose `$` is the element.
 * The loop variable stands for `@` while the body is translated; a check
 * that reads anything but the element cannot sit in such a group.
 *
 * @module
 */
import type { Node } from "./parse.ts";
import type { Cond } from "./sym.ts";

/**
 * The path the loop variable stands for while a loop's body is translated.
 *
 * @example
 * ```ts
 * import { ELEMENT } from "./each.ts";
 * if (ELEMENT !== "@") throw new Error();
 * ```
 */
export const ELEMENT = "@";

/** A check, a group under a condition, or a group over every element of a list. */
export type CheckItem =
  | { cond: Cond; name?: string }
  | { if: Cond[]; checks: CheckItem[]; else: CheckItem[] }
  | { at: string; checks: CheckItem[] };

/** A loop over a list: the list's expression, the variable, the body's statements. */
export interface Loop {
  list: Node;
  variable: string;
  body: Node[];
}

const isFunction = (n: Node | undefined): n is Node =>
  n !== undefined && (n.type === "FunctionExpression" || n.type === "ArrowFunctionExpression");

/** A function's body as statements (an arrow's expression is one). */
function statements(fn: Node): Node[] {
  if (fn.body.type === "BlockStatement") return fn.body.body;
  return [{
    type: "ExpressionStatement",
    expression: fn.body,
    start: fn.body.start,
    end: fn.body.end,
  }];
}

/**
 * The loop a statement is, if it is one of the three spellings.
 *
 * @example
 * ```ts
 * import { loopOf } from "./each.ts";
 * import { parseScript } from "./parse.ts";
 * const p = parseScript("json.items.forEach(function (item) { tests['x'] = item.id; });");
 * const loop = p.ok ? loopOf(p.program.body[0]) : undefined;
 * if (loop?.variable !== "item" || loop.body.length !== 1) throw new Error();
 * ```
 */
export function loopOf(node: Node): Loop | undefined {
  if (node.type === "ForOfStatement") return forOf(node);
  const e = node.type === "ExpressionStatement" ? node.expression : undefined;
  if (e?.type !== "CallExpression" || e.callee.type !== "MemberExpression") return undefined;
  const [list, fn] = loopCall(e);
  const param = isFunction(fn) ? fn.params[0] : undefined;
  if (!list || param?.type !== "Identifier") return undefined;
  return { list, variable: param.name, body: statements(fn as Node) };
}

/** `for (const item of list) …`. */
function forOf(node: Node): Loop | undefined {
  const id = node.left.type === "VariableDeclaration" ? node.left.declarations[0]?.id : undefined;
  if (id?.type !== "Identifier") return undefined;
  const body = node.body.type === "BlockStatement" ? node.body.body : [node.body];
  return { list: node.right, variable: id.name, body };
}

/** The list and the function of `list.forEach(fn)` or `_.each(list, fn)`; none for other calls. */
function loopCall(e: Node): (Node | undefined)[] {
  const callee = e.callee;
  if (callee.computed) return [];
  const name = callee.property.name;
  const lodash = callee.object.type === "Identifier" && callee.object.name === "_";
  if (lodash) return name === "each" || name === "forEach" ? e.arguments : [];
  return name === "forEach" ? [callee.object, e.arguments[0]] : [];
}

/** `@.id` → `$.id`; `undefined` for a path that does not start at the element. */
function relative(path: string): string | undefined {
  if (path === ELEMENT) return "$";
  return /^@[.[]/.test(path) ? `$${path.slice(1)}` : undefined;
}

function relativeCond(c: Cond): Cond | undefined {
  const path = relative(c.path);
  return path === undefined ? undefined : { ...c, path };
}

/**
 * The checks of a loop's body rooted at the element, or `undefined` when one
 * reads something else (then the loop is left untranslated).
 *
 * @example
 * ```ts
 * import { rooted } from "./each.ts";
 * const out = rooted([{ cond: { path: "@.id", op: "exists", value: true } }]);
 * if (out?.[0] === undefined || !("cond" in out[0]) || out[0].cond.path !== "$.id") throw new Error();
 * if (rooted([{ cond: { path: "$.status", op: "equals", value: 200 } }]) !== undefined) throw new Error();
 * ```
 */
export function rooted(items: CheckItem[]): CheckItem[] | undefined {
  const out: CheckItem[] = [];
  for (const item of items) {
    if ("cond" in item) {
      const cond = relativeCond(item.cond);
      if (!cond) return undefined;
      out.push({ ...item, cond });
    } else if ("if" in item) {
      const conds = item.if.map(relativeCond);
      const checks = rooted(item.checks);
      const otherwise = rooted(item.else);
      if (conds.some((c) => !c) || !checks || !otherwise) return undefined;
      out.push({ if: conds as Cond[], checks, else: otherwise });
    } else {
      const at = relative(item.at);
      const checks = rooted(item.checks);
      if (at === undefined || !checks) return undefined;
      out.push({ at, checks });
    }
  }
  return out;
}

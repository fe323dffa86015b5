/**
 * Checks written in a loop over a response list (`json.items.forEach(item
 * => pm.expect(item.id).to.be.a("number"))`, `for (const item of
 * json.items)`, `_.each(json.items, …)`) become a check group over every
 * element: `{at: $.json.items[*], checks: [...]}`, whose `$` is the element;
 * so does `pm.expect(json.items.every(item => …)).to.be.true`, which says the same.
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
  const every = e && everyLoop(node, e);
  if (every) return every;
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

/**
 * `pm.expect(list.every(p => …)).to.be.true` (or `.to.eql(true)`, `.to.equal(true)`) says
 * what a loop asserting the predicate on each element says, so it is that loop.
 */
function everyLoop(node: Node, e: Node): Loop | undefined {
  const expect = assertedTrue(e);
  const subject = expect?.arguments[0];
  if (!expect || subject?.type !== "CallExpression") return undefined;
  const callee = subject.callee;
  if (callee.type !== "MemberExpression" || callee.computed) return undefined;
  if (callee.property.name !== "every" || subject.arguments.length !== 1) return undefined;
  const predicate = predicateOf(subject.arguments[0]);
  if (!predicate) return undefined;
  const { param, result } = predicate;
  const check = { type: "ExpressionStatement", expression: trueOf(expect, result) };
  return {
    list: callee.object,
    variable: param,
    body: [{ ...check, start: node.start, end: node.end }],
  };
}

/** The parameter and the result of `p => e` or `function (p) { return e; }`. */
function predicateOf(fn: Node | undefined): { param: string; result: Node } | undefined {
  const param = isFunction(fn) && fn.params.length === 1 ? fn.params[0] : undefined;
  const body = isFunction(fn) ? statements(fn) : [];
  const [only] = body;
  const result = only?.type === "ReturnStatement"
    ? only.argument
    : only?.type === "ExpressionStatement" && fn?.body.type !== "BlockStatement"
    ? only.expression
    : undefined;
  if (param?.type !== "Identifier" || !result || body.length !== 1) return undefined;
  return { param: param.name, result };
}

const isExpect = (n: Node) =>
  n.type === "CallExpression" && n.callee.type === "MemberExpression" &&
  n.callee.object.type === "Identifier" && n.callee.object.name === "pm" &&
  !n.callee.computed && n.callee.property.name === "expect" && n.arguments.length === 1;

const isMember = (n: Node, name: string) =>
  n.type === "MemberExpression" && !n.computed && n.property.name === name;

/** The `pm.expect(x)` of `pm.expect(x).to.be.true`, `.to.eql(true)`, `.to.equal(true)`. */
function assertedTrue(e: Node): Node | undefined {
  let to: Node | undefined;
  if (isMember(e, "true") && isMember(e.object, "be")) to = e.object.object;
  const equal = e.type === "CallExpression" && e.arguments.length === 1 &&
    e.arguments[0].type === "Literal" && e.arguments[0].value === true &&
    ["eql", "equal", "equals", "eq"].some((w) => isMember(e.callee, w));
  if (equal) to = e.callee.object;
  if (to && isMember(to, "be")) to = to.object;
  return to && isMember(to, "to") && isExpect(to.object) ? to.object : undefined;
}

/** `pm.expect(subject).to.be.true`, the `pm.expect` call `expect`'s own with `subject` its argument. */
function trueOf(expect: Node, subject: Node): Node {
  const at = { start: expect.start, end: expect.end };
  const name = (n: string) => ({ type: "Identifier", name: n, ...at });
  const member = (object: Node, n: string): Node => ({
    type: "MemberExpression",
    computed: false,
    object,
    property: name(n),
    ...at,
  });
  return member(member(member({ ...expect, arguments: [subject] }, "to"), "be"), "true");
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

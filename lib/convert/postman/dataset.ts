/**
 * A request sent once per element of a list its own scripts hold: the
 * pre-request script starts from a literal list when the variable holds none
 * (`if (!list | list.length === 0) list = […]`), takes the next element
 * (`list.shift()`), sets the variable the request reads to it
 * (`JSON.stringify(element)`, or the element when it is text or a number)
 * and keeps the rest; the test script sends the request again
 * (`setNextRequest` of its own name) while any is left. Newman then sends
 * the request once per element, in order: the step's `foreach`. Only a
 * pre-request script that does exactly this is read so; anything else is
 * left to the translator (and stays a comment).
 *
 * @module
 */
import type { PmRequest, PmScript } from "./model.ts";
import type { Translation } from "./script/translation.ts";
import { dotted } from "./script/eval.ts";
import { type Node, parseScript } from "./script/parse.ts";

/** A request its scripts send once per element of a list. */
export interface DatasetLoop {
  /** The Postman variable the request reads each element by. */
  name: string;
  /** Each element as the script sets the variable: text. */
  values: string[];
  /** The request with the statements of the loop taken out of its own scripts. */
  request: PmRequest;
}

const SCOPE = "pm\\.(environment|collectionVariables|variables|globals)";
const GET = new RegExp(`^${SCOPE}\\.get$`);
const SET = new RegExp(`^${SCOPE}\\.set$`);
const NEXT = new Set(["postman.setNextRequest", "pm.execution.setNextRequest"]);
const NONE = Symbol("not a literal");

/** The name a call of `re` (`pm.environment.get("k")`) gives as its first argument. */
function named(node: Node | undefined, re: RegExp): string | undefined {
  if (node?.type !== "CallExpression" || !re.test(dotted(node.callee) ?? "")) return undefined;
  const arg = node.arguments[0];
  return arg?.type === "Literal" && typeof arg.value === "string" ? arg.value : undefined;
}

/** The value a literal expression (`{ name: 1 }`, `["a"]`, `-2`) writes, else {@linkcode NONE}. */
function literal(node: Node, depth = 0): unknown {
  if (depth > 32) return NONE;
  if (node.type === "Literal" && !node.regex) return node.value;
  if (node.type === "UnaryExpression" && node.operator === "-") {
    const v = literal(node.argument, depth + 1);
    return typeof v === "number" ? -v : NONE;
  }
  if (node.type === "ArrayExpression") {
    const items = node.elements.map((e: Node | null) => e ? literal(e, depth + 1) : NONE);
    return items.includes(NONE) ? NONE : items;
  }
  return node.type === "ObjectExpression" ? objectLiteral(node, depth) : NONE;
}

/** The object an object literal writes, else {@linkcode NONE}. */
function objectLiteral(node: Node, depth: number): unknown {
  const out: Record<string, unknown> = {};
  for (const p of node.properties) {
    const key = p.key?.type === "Identifier" ? p.key.name : p.key?.value;
    const value = p.type === "Property" && !p.computed ? literal(p.value, depth + 1) : NONE;
    if (typeof key !== "string" || value === NONE) return NONE;
    out[key] = value;
  }
  return out;
}

/** `if (…list…) { list = [literals] }`: the list's elements. */
function startList(s: Node, list: string): unknown[] | undefined {
  if (s?.type !== "IfStatement" || s.alternate) return undefined;
  // The list the script starts from when the variable holds none: the test reads the variable.
  if (!some(s.test, (n) => n.type === "Identifier" && n.name === list)) return undefined;
  const body = s.consequent.type === "BlockStatement" ? s.consequent.body : [s.consequent];
  const e = body.length === 1 ? body[0].expression : undefined;
  if (e?.type !== "AssignmentExpression" || e.operator !== "=" || e.left.name !== list) {
    return undefined;
  }
  const items = e.right.type === "ArrayExpression" ? literal(e.right) : NONE;
  return Array.isArray(items) && items.length > 0 ? items : undefined;
}

/** `let l = get("list"); if (!l) { l = […] } const c = l.shift();`: what each name is. */
function held(body: Node[]) {
  const [decl, start, shift] = body;
  if (decl.type !== "VariableDeclaration" || shift.type !== "VariableDeclaration") return undefined;
  const local = decl.declarations[0]?.id.name;
  const list = named(decl.declarations[0]?.init, GET);
  const items = startList(start, local);
  const taken = shift.declarations[0];
  const call = taken?.init;
  const shifts = call?.type === "CallExpression" && dotted(call.callee) === `${local}.shift`;
  if (!list || !items || !shifts || call.arguments.length > 0) return undefined;
  return { local, list, items, element: taken.id.name as string };
}

/** The variable the request reads and each element as set, when `source` is the taking script. */
function taking(source: string): { list: string; name: string; values: string[] } | undefined {
  const p = parseScript(source);
  const body: Node[] = p.ok ? p.program.body : [];
  const h = body.length === 5 ? held(body) : undefined;
  if (!h) return undefined;
  const exprs = body.slice(3).map((s) => s.type === "ExpressionStatement" ? s.expression : {});
  const keeps = exprs.find((e) => named(e, SET) === h.list && e.arguments[1]?.name === h.local);
  const sets = exprs.find((e) => e !== keeps && named(e, SET) !== undefined);
  const arg = sets?.arguments[1] ?? {};
  const json = arg.type === "CallExpression" && dotted(arg.callee) === "JSON.stringify" &&
    arg.arguments[0]?.name === h.element;
  const plain = arg.name === h.element &&
    h.items.every((i) => typeof i === "string" || typeof i === "number");
  if (!keeps || !(json || plain)) return undefined;
  const values = h.items.map((i) => json ? JSON.stringify(i) : String(i));
  return { list: h.list, name: named(sets, SET)!, values };
}

/** Whether `node` or a node under it is one `pred` holds for. */
function some(node: Node, pred: (n: Node) => boolean, depth = 0): boolean {
  if (depth > 64 || !node || typeof node !== "object") return false;
  if (pred(node)) return true;
  return Object.values(node).some((v) =>
    Array.isArray(v)
      ? v.some((c) => some(c, pred, depth + 1))
      : typeof v?.type === "string" && some(v, pred, depth + 1)
  );
}

/** Whether `node` holds a `setNextRequest` of `self` (by name or `pm.info.requestName`). */
function repeats(node: Node, self: string): boolean {
  return some(node, (n) => {
    if (n.type !== "CallExpression" || !NEXT.has(dotted(n.callee) ?? "")) return false;
    const arg = n.arguments[0];
    return arg?.value === self || dotted(arg ?? {}) === "pm.info.requestName";
  });
}

/**
 * The test script without the statements that repeat the request while `list` holds any
 * (a function that does so, and its calls); `undefined` when it has none.
 */
function withoutRepeat(source: string, self: string, list: string): string | undefined {
  const p = parseScript(source);
  if (!p.ok) return undefined;
  const loops = (p.program.body as Node[]).filter((s) =>
    repeats(s, self) && source.slice(s.start, s.end).includes(list)
  );
  if (loops.length !== 1) return undefined;
  const fn = loops[0].type === "VariableDeclaration"
    ? loops[0].declarations[0]?.id.name
    : loops[0].id?.name;
  const rest = (p.program.body as Node[]).filter((s) =>
    s !== loops[0] && !(s.type === "ExpressionStatement" && s.expression.callee?.name === fn)
  );
  return rest.map((s) => source.slice(s.start, s.end)).join("\n");
}

/**
 * The loop `r`'s own scripts make, when they make one.
 *
 * @example
 * ```ts
 * import { datasetLoop } from "./dataset.ts";
 * const pre = "let l = pm.environment.get('l'); if (!l) { l = [{}, { a: 1 }]; }\n" +
 *   "const c = l.shift(); pm.environment.set('c', JSON.stringify(c)); pm.environment.set('l', l);";
 * const test = "if (pm.environment.get('l').length > 0) postman.setNextRequest('Bad');";
 * const loop = datasetLoop({ name: "Bad", folders: [], method: "POST", url: "/x", headers: [],
 *   scripts: [{ listen: "prerequest", owner: "Bad", source: pre }, { listen: "test", owner: "Bad", source: test }] });
 * if (loop?.name !== "c" || loop.values[1] !== '{"a":1}' || loop.request.scripts.length !== 0) throw new Error();
 * ```
 */
export function datasetLoop(r: PmRequest): DatasetLoop | undefined {
  const own = (listen: string) =>
    r.scripts.filter((s) => s.owner === r.name && s.listen === listen);
  const [pre, test] = [own("prerequest"), own("test")];
  if (pre.length !== 1 || test.length !== 1) return undefined;
  const took = taking(pre[0].source);
  const rest = took && withoutRepeat(test[0].source, r.name, took.list);
  if (!took || rest === undefined) return undefined;
  const scripts = r.scripts.flatMap((s): PmScript[] =>
    s === pre[0] ? [] : s === test[0] ? (rest.trim() ? [{ ...s, source: rest }] : []) : [s]
  );
  return { name: took.name, values: took.values, request: { ...r, scripts } };
}

/** How a flow sets a variable (the builder's `set`). */
type SetVar = (set: Translation["sets"][number], where: string) => void;

/**
 * The name a loop's step reads its element by (`as`), the variable bound to it until the step
 * is written; `undefined` without a loop.
 *
 * @example
 * ```ts
 * import { eachStart } from "./dataset.ts";
 * const request = { name: "a", folders: [], method: "GET", url: "/", headers: [], scripts: [] };
 * const set: string[] = [];
 * const as = eachStart({ name: "cur", values: ["1"], request }, (s) => set.push(s.value), "a");
 * if (as !== "each_cur" || set[0] !== "${each_cur}") throw new Error();
 * ```
 */
export function eachStart(each: DatasetLoop | undefined, set: SetVar, where: string) {
  if (!each) return undefined;
  const as = `each_${each.name.replace(/[^A-Za-z0-9_]/g, "_")}`;
  set({ name: each.name, value: `\${${as}}`, kind: "expr" }, where);
  return as;
}

/**
 * After the loop the variable holds the last element, as Postman's does.
 *
 * @example
 * ```ts
 * import { eachEnd } from "./dataset.ts";
 * const request = { name: "a", folders: [], method: "GET", url: "/", headers: [], scripts: [] };
 * const set: string[] = [];
 * eachEnd({ name: "cur", values: ["1", "2"], request }, (s) => set.push(s.value), "a");
 * if (set[0] !== "2") throw new Error();
 * ```
 */
export function eachEnd(each: DatasetLoop | undefined, set: SetVar, where: string): void {
  if (each) set({ name: each.name, value: each.values.at(-1)!, kind: "text" }, where);
}

/**
 * The `max_iterations` a loop's `foreach` needs: none within the flow
 * format's default bound (1,000), else its length, so the flow sends every
 * element, as Newman does.
 *
 * @example
 * ```ts
 * import { iterationBound } from "./dataset.ts";
 * // deno-lint-ignore no-explicit-any
 * const loop = (n: number) => ({ values: Array(n).fill("{}") }) as any;
 * if (iterationBound(loop(3)) !== undefined || iterationBound(loop(1_200)) !== 1_200) throw new Error();
 * ```
 */
export function iterationBound(loop: DatasetLoop | undefined): number | undefined {
  return loop !== undefined && loop.values.length > 1_000 ? loop.values.length : undefined;
}

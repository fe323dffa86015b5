/**
 * `pm.sendRequest` made awaitable, as scripts write it to send requests one
 * after another: a function that returns `new Promise((resolve, reject) =>
 * pm.sendRequest(req, (err, res) => err ? reject(err) : resolve(res)))`,
 * awaited from an async function the script calls at once. Postman sends the
 * request and waits for it before the item's own, so each call of such a
 * function is the `pm.sendRequest` of its argument; the async function's
 * body runs as the script's own statements.
 *
 * @module
 */
import { dotted } from "./eval.ts";
import type { Node } from "./parse.ts";

/** The body of an executor or callback as statements (an arrow's expression is one). */
function statements(fn: Node): Node[] {
  const body = fn.body;
  if (body.type === "BlockStatement") return body.body;
  return [{ type: "ExpressionStatement", expression: body, start: body.start, end: body.end }];
}

/** Whether every call in `node` is of one of `names` (a settle, or `console.*`): nothing else runs. */
function onlySettles(node: Node, names: string[]): boolean {
  if (!node || typeof node !== "object") return true;
  if (node.type === "CallExpression") {
    const callee = dotted(node.callee) ?? "";
    if (!names.includes(callee) && !callee.startsWith("console.")) return false;
  }
  if (node.type === "AssignmentExpression" || node.type === "UpdateExpression") return false;
  return Object.entries(node).every(([key, child]) =>
    key === "type" || !child || typeof child !== "object" ||
    (Array.isArray(child) ? child.every((c) => onlySettles(c, names)) : onlySettles(child, names))
  );
}

/** `pm.sendRequest(param, (err, res) => …settle…)`, the executor's only statement. */
function settlingSend(executor: Node, param: string): boolean {
  const isFn = executor?.type === "ArrowFunctionExpression" ||
    executor?.type === "FunctionExpression";
  if (!isFn) return false;
  const settles = executor.params.map((p: Node) => p.type === "Identifier" ? p.name : "?");
  const [only, ...rest] = statements(executor);
  const send = only?.type === "ExpressionStatement" ? only.expression : undefined;
  const [arg, callback] = send?.type === "CallExpression" ? send.arguments : [];
  const sends = rest.length === 0 && send?.type === "CallExpression" &&
    dotted(send.callee) === "pm.sendRequest" && send.arguments.length === 2 &&
    arg?.type === "Identifier" && arg.name === param;
  const cbFn = callback?.type === "ArrowFunctionExpression" ||
    callback?.type === "FunctionExpression";
  return sends && cbFn && onlySettles(callback.body, settles);
}

/**
 * The name of the function `node` declares when it is such a wrapper
 * (`function send(req) { return new Promise(… pm.sendRequest(req, …) …) }`,
 * its callback doing nothing but settle), else undefined.
 *
 * @example
 * ```ts
 * import { promisedSend } from "./promised_send.ts";
 * import { parseScript } from "./parse.ts";
 * const p = parseScript("function send(r) { return new Promise((ok, no) => { pm.sendRequest(r, (e, res) => e ? no(e) : ok(res)); }); }");
 * if (!p.ok || promisedSend(p.program.body[0]) !== "send") throw new Error();
 * ```
 */
export function promisedSend(node: Node): string | undefined {
  if (node.type !== "FunctionDeclaration" || node.params.length !== 1) return undefined;
  const param = node.params[0].type === "Identifier" ? node.params[0].name : undefined;
  const [ret, ...rest] = node.body.body;
  const promise = ret?.type === "ReturnStatement" ? ret.argument : undefined;
  const made = promise?.type === "NewExpression" && promise.callee.type === "Identifier" &&
    promise.callee.name === "Promise" && promise.arguments.length === 1;
  const ok = param !== undefined && rest.length === 0 && made &&
    settlingSend(promise.arguments[0], param);
  return ok ? node.id.name : undefined;
}

/**
 * The call `node` makes of a wrapper named in `wrappers` (awaited or not),
 * as the `pm.sendRequest(arg)` it stands for; else undefined.
 *
 * @example
 * ```ts
 * import { wrappedSend } from "./promised_send.ts";
 * import { dotted } from "./eval.ts";
 * import { parseScript } from "./parse.ts";
 * const p = parseScript("async function f() { await send(url); }");
 * if (!p.ok) throw new Error();
 * const call = wrappedSend(p.program.body[0].body.body[0].expression, new Set(["send"]));
 * if (!call || dotted(call.callee) !== "pm.sendRequest") throw new Error();
 * ```
 */
export function wrappedSend(node: Node | undefined, wrappers: Set<string>): Node | undefined {
  const call = node?.type === "AwaitExpression" ? node.argument : node;
  const named = call?.type === "CallExpression" && call.callee.type === "Identifier" &&
    wrappers.has(call.callee.name) && call.arguments.length === 1;
  if (!named) return undefined;
  const pm = { type: "Identifier", name: "pm" };
  const callee = {
    type: "MemberExpression",
    computed: false,
    object: pm,
    property: { type: "Identifier", name: "sendRequest" },
  };
  return { ...call, callee, arguments: call.arguments };
}

/**
 * The statements of a function the script calls at once with no argument
 * (`(async function main() { … })()`, `(async () => { … })()`), else
 * undefined: they run as the script's own.
 *
 * @example
 * ```ts
 * import { calledAtOnce } from "./promised_send.ts";
 * import { parseScript } from "./parse.ts";
 * const p = parseScript("(async () => { a(); b(); })();");
 * if (!p.ok || calledAtOnce(p.program.body[0].expression)?.length !== 2) throw new Error();
 * ```
 */
export function calledAtOnce(e: Node): Node[] | undefined {
  const fn = e.type === "CallExpression" && e.arguments.length === 0 ? e.callee : undefined;
  const isFn = fn?.type === "FunctionExpression" || fn?.type === "ArrowFunctionExpression";
  return isFn && fn.params.length === 0 ? statements(fn) : undefined;
}

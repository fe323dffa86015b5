/**
 * A loop whose list the script writes itself (`const keys = ["id", "name"]; for (const key of
 * keys) pm.expect(item[key]).to.exist`): each element is known before the request is sent, so
 * the loop is its body once per element, the variable bound to that element, as Newman runs it.
 * A loop over a response list is a check group instead (each.ts). Bounded: a written list longer
 * than {@linkcode MAX_WRITTEN_LIST} stays a comment.
 *
 * @module
 */
import { type EvalContext, evaluate } from "./eval.ts";
import type { Node } from "./node.ts";
import type { Sym } from "./sym.ts";

/**
 * The longest written list a loop is unrolled over: a test script's list of keys or cases is a
 * handful; more is data, whose checks one per element would swamp the step.
 *
 * @example
 * ```ts
 * import { MAX_WRITTEN_LIST } from "./literal_loop.ts";
 * if (MAX_WRITTEN_LIST !== 50) throw new Error();
 * ```
 */
export const MAX_WRITTEN_LIST = 50;

/**
 * The elements of a list the script wrote (a value known now), each as the value the loop's
 * variable holds; undefined when `list` is not such a list, is empty, or is too long.
 *
 * @example
 * ```ts
 * import { writtenElements } from "./literal_loop.ts";
 * const e = writtenElements({ k: "lit", value: ["id", "name"] });
 * if (e?.length !== 2 || e[1].k !== "lit" || e[1].value !== "name") throw new Error(JSON.stringify(e));
 * if (writtenElements({ k: "path", path: "$.json.items" }) !== undefined) throw new Error();
 * if (writtenElements({ k: "lit", value: [] }) !== undefined) throw new Error();
 * ```
 */
export function writtenElements(list: Sym | undefined): Sym[] | undefined {
  if (list?.k !== "lit" || !Array.isArray(list.value)) return undefined;
  if (list.value.length === 0 || list.value.length > MAX_WRITTEN_LIST) return undefined;
  return list.value.map((value) => ({ k: "lit" as const, value }));
}

/**
 * Whether a loop's turns share one variable a later callback reads: a `var` (not a `let` or
 * `const`, which each turn has its own of) in a loop whose body sends with `pm.sendRequest`,
 * whose callback runs after the loop has ended and reads the last value. Such a loop is not
 * unrolled.
 *
 * @example
 * ```ts
 * import { parse } from "acorn";
 * import { sharedTurns } from "./literal_loop.ts";
 * const at = (s: string) => (parse(s, { ecmaVersion: "latest" }) as never as { body: never[] }).body[0];
 * if (!sharedTurns(at("for (var i = 0; i < 2; i++) pm.sendRequest(u + i, cb);"))) throw new Error();
 * if (sharedTurns(at("for (let i = 0; i < 2; i++) pm.sendRequest(u + i, cb);"))) throw new Error();
 * if (sharedTurns(at("for (var k of ks) pm.test(k, f);"))) throw new Error();
 * ```
 */
export function sharedTurns(node: Node): boolean {
  const declaration = node.type === "ForStatement" ? node.init : node.left;
  if (declaration?.type !== "VariableDeclaration" || declaration.kind !== "var") return false;
  const stack: unknown[] = [node.body];
  while (stack.length > 0) {
    const n = stack.pop() as Node | null;
    if (!n || typeof n !== "object") continue;
    const callee = n.type === "CallExpression" ? n.callee : undefined;
    if (callee?.type === "MemberExpression" && callee.property?.name === "sendRequest") return true;
    for (const v of Object.values(n)) if (v && typeof v === "object") stack.push(v);
  }
  return false;
}

/** A counted loop whose bounds are known now: its variable, its body, and the values it takes. */
export interface CountedLoop {
  variable: string;
  body: Node[];
  elements: Sym[];
}

/**
 * `for (let i = 1; i < 4; i++) { … }` with bounds known now (`ctx` evaluates them), stepping by
 * one up or down (`i++`, `++i`, `i += 1`, `i--`, `i -= 1`), its body never assigning the
 * variable (nor sending, with a `var`: sharedTurns): the values the variable takes, as a written
 * list's elements; undefined for any other loop, or one of more than
 * {@linkcode MAX_WRITTEN_LIST} turns.
 *
 * @example
 * ```ts
 * import { parse } from "acorn";
 * import { countedLoop } from "./literal_loop.ts";
 * const at = (s: string) => (parse(s, { ecmaVersion: "latest" }) as never as { body: never[] }).body[0];
 * const ctx = { scope: new Map(), tests: new Map(), variable: () => undefined };
 * const c = countedLoop(at("for (let i = 1; i <= 3; i++) send(i);"), ctx);
 * if (c?.variable !== "i" || c.elements.map((e) => e.k === "lit" && e.value).join() !== "1,2,3") throw new Error();
 * if (countedLoop(at("for (let i = 0; i < 3; i++) { i = 5; }"), ctx)) throw new Error();
 * if (countedLoop(at("for (let i = 0; i < n.length; i++) {}"), ctx)) throw new Error();
 * ```
 */
export function countedLoop(node: Node, ctx: EvalContext): CountedLoop | undefined {
  if (node.type !== "ForStatement" || node.init?.type !== "VariableDeclaration") return undefined;
  const [d, ...more] = node.init.declarations as Node[];
  if (more.length > 0 || d.id.type !== "Identifier" || !d.init) return undefined;
  const variable: string = d.id.name;
  const known = (n: Node) => {
    const v = evaluate(n, ctx, 0);
    return v?.k === "lit" && typeof v.value === "number" ? v.value : undefined;
  };
  const [from, to, step] = [
    known(d.init),
    boundOf(node.test, variable, known),
    stepOf(node.update, variable),
  ];
  const fixed = !assigns(node.body, variable) && !sharedTurns(node);
  if (from === undefined || to === undefined || step === undefined || !fixed) return undefined;
  const values = turnValues(from, to.holds, step);
  const body = node.body.type === "BlockStatement" ? node.body.body : [node.body];
  return values?.length
    ? { variable, body, elements: values.map((value) => ({ k: "lit", value })) }
    : undefined;
}

/** The values from `from` on, by `step`, while `holds`; undefined past the bound on turns. */
function turnValues(
  from: number,
  holds: (v: number) => boolean,
  step: number,
): number[] | undefined {
  const values: number[] = [];
  for (let v = from; holds(v); v += step) {
    if (values.length === MAX_WRITTEN_LIST || !Number.isSafeInteger(v)) return undefined;
    values.push(v);
  }
  return values;
}

const COMPARE: Record<string, (a: number, b: number) => boolean> = {
  "<": (a, b) => a < b,
  "<=": (a, b) => a <= b,
  ">": (a, b) => a > b,
  ">=": (a, b) => a >= b,
};

/** `i < 4` (or `<=`, `>`, `>=`) with a bound known now, as a test of a value. */
function boundOf(
  test: Node | null,
  variable: string,
  known: (n: Node) => number | undefined,
): { holds: (v: number) => boolean } | undefined {
  const compare = test?.type === "BinaryExpression" ? COMPARE[test.operator] : undefined;
  if (!compare || test!.left.type !== "Identifier" || test!.left.name !== variable) {
    return undefined;
  }
  const bound = known(test!.right);
  return bound === undefined ? undefined : { holds: (v) => compare(v, bound) };
}

/** +1 or -1 for `i++`, `++i`, `i += 1`, `i--`, `--i`, `i -= 1`; undefined otherwise. */
function stepOf(update: Node | null, variable: string): number | undefined {
  if (update?.type === "UpdateExpression" && update.argument.name === variable) {
    return update.operator === "++" ? 1 : -1;
  }
  const one = update?.type === "AssignmentExpression" && update.left.name === variable &&
    update.right.type === "Literal" && update.right.value === 1;
  if (!one) return undefined;
  return update!.operator === "+=" ? 1 : update!.operator === "-=" ? -1 : undefined;
}

/** Whether `body` assigns `variable` anywhere (walked without recursion). */
function assigns(body: Node, variable: string): boolean {
  const stack: unknown[] = [body];
  while (stack.length > 0) {
    const n = stack.pop();
    if (!n || typeof n !== "object") continue;
    const node = n as Node;
    const target = node.type === "AssignmentExpression"
      ? node.left
      : node.type === "UpdateExpression"
      ? node.argument
      : undefined;
    if (target?.type === "Identifier" && target.name === variable) return true;
    for (const v of Object.values(node)) if (v && typeof v === "object") stack.push(v);
  }
  return false;
}

/** A list's methods that change it in place. */
const CHANGES = new Set(["push", "unshift", "splice", "pop", "shift", "sort", "reverse", "fill"]);

/**
 * Whether a loop's body changes a value declared outside it (`s += …`, `n = n + …`,
 * `ids.push(…)`, `obj.k = …`): its turns then build one value together, which a script may make
 * at random or from the answer, so the loop is not unrolled and stays as written, as before.
 *
 * @example
 * ```ts
 * import { parse } from "acorn";
 * import { changesOutside } from "./literal_loop.ts";
 * const body = (s: string) => (parse(s, { ecmaVersion: "latest" }) as never as { body: never[] }).body;
 * if (!changesOutside(body("s += chars.charAt(1);"))) throw new Error();
 * if (!changesOutside(body("ids.push(i);"))) throw new Error();
 * if (changesOutside(body("const x = i * 2; pm.environment.set('k' + i, x);"))) throw new Error();
 * ```
 */
export function changesOutside(body: Node[]): boolean {
  const inside = new Set<string>();
  const targets: Node[] = [];
  const stack: unknown[] = [...body];
  while (stack.length > 0) {
    const n = stack.pop() as Node | null;
    if (!n || typeof n !== "object") continue;
    noted(n, inside, targets);
    for (const v of Object.values(n)) if (v && typeof v === "object") stack.push(v);
  }
  return targets.some((t) => {
    let root = t;
    while (root.type === "MemberExpression") root = root.object;
    return root.type !== "Identifier" || !inside.has(root.name);
  });
}

/** Notes what node `n` declares (`inside`) and what it changes (`targets`). */
function noted(n: Node, inside: Set<string>, targets: Node[]): void {
  if (n.type === "VariableDeclarator" && n.id.type === "Identifier") inside.add(n.id.name);
  if (/Function/.test(n.type)) {
    for (const p of n.params) if (p.type === "Identifier") inside.add(p.name);
  }
  if (n.type === "AssignmentExpression") targets.push(n.left);
  if (n.type === "UpdateExpression") targets.push(n.argument);
  const callee = n.type === "CallExpression" ? n.callee : undefined;
  if (callee?.type === "MemberExpression" && CHANGES.has(callee.property?.name)) {
    targets.push(callee.object);
  }
}

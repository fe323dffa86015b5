/**
 * A number drawn again until it differs from another, as a collection picks two different rooms
 * or seats: `while (b === a) { b = _.random(1, 100); }` (`==`, either side; `&& tries < 20` with
 * a counter the body counts up; a `console.log` beside), or `do { b = … } while (b === a)`; or
 * until it passes a bound, as a tester's quantity above 100: `while (q <= 100) q = …`. A flow has no loop that draws
 * again, so `b` becomes a value the script could draw that `a` never is: its own made value when
 * the two can never be equal (`${RANDOM.DIGITS_1}`, 1 to 9, beside a fixed 10), else the least of
 * its range that `a` never takes, the same in every run (`_.random(1, 100)` twice:
 * `${RANDOM.DIGITS_2}` for `a`, 10 to 99, and 1 for `b`), as a draw no count of digits stays in
 * is its least value (random_number.ts). Any other loop is left untranslated.
 *
 * @module
 */
import type { Node } from "./parse.ts";
import type { Sym } from "./sym.ts";
import { drawRange, randomNumber, wholeInRange } from "./random_number.ts";
import { lodashRandom } from "./library.ts";
import { type EvalContext, evaluate } from "./eval.ts";
import { forgetAssigned } from "./forget.ts";

type Value = (n: Node) => Sym | undefined;

const isName = (n: Node | undefined, name?: string) =>
  n?.type === "Identifier" && (name === undefined || n.name === name);

/** The whole numbers a value can hold, `[min, max]`: a made number's digits, a number known now. */
function heldRange(s: Sym | undefined): [number, number] | undefined {
  if (s?.k === "lit") {
    return Number.isSafeInteger(s.value) ? [s.value as number, s.value as number] : undefined;
  }
  const digits = s?.k === "gen" ? /^\$\{RANDOM\.DIGITS_(\d+)\}$/.exec(s.text) : null;
  if (!digits) return undefined;
  const n = Number(digits[1]);
  return [10 ** (n - 1), 10 ** n - 1];
}

/** How `b OP n` reads with `b` on the right (`100 >= b` is `b <= 100`). */
const FLIPPED: Record<string, string> = { "<": ">", "<=": ">=", ">": "<", ">=": "<=" };

/**
 * The numbers a loop's test draws again on, `[min, max]` (open ends infinite): what the other side
 * of `b === a` (`==`, either side) can hold, or `b <= 100` (`<`, `>`, `>=`, either side) of a
 * whole number known now.
 */
function avoided(test: Node, drawn: string, value: Value): [number, number] | undefined {
  if (test?.type !== "BinaryExpression") return undefined;
  const left = isName(test.left, drawn);
  if (!left && !isName(test.right, drawn)) return undefined;
  const other = left ? test.right : test.left;
  if (["===", "=="].includes(test.operator)) return heldRange(value(other));
  const op = left ? test.operator : FLIPPED[test.operator];
  const n = heldRange(value(other));
  if (!op || !n || n[0] !== n[1]) return undefined;
  const [at] = n;
  return op === "<="
    ? [-Infinity, at]
    : op === "<"
    ? [-Infinity, at - 1]
    : op === ">="
    ? [at, Infinity]
    : op === ">"
    ? [at + 1, Infinity]
    : undefined;
}

/** The comparison of a loop's test, without a bound on a counter (`&& tries < 20`). */
function comparison(test: Node): { compared: Node; counter?: string } | undefined {
  if (test?.type !== "LogicalExpression" || test.operator !== "&&") return { compared: test };
  const bound = (n: Node) =>
    n.type === "BinaryExpression" && ["<", "<="].includes(n.operator) && isName(n.left) &&
    n.right.type === "Literal" && typeof n.right.value === "number";
  if (bound(test.right)) return { compared: test.left, counter: test.right.left.name };
  return bound(test.left) ? { compared: test.right, counter: test.left.left.name } : undefined;
}

/** `console.log(…)` (any of its methods) as a statement. */
const logged = (n: Node) =>
  n.type === "ExpressionStatement" && n.expression.type === "CallExpression" &&
  n.expression.callee.type === "MemberExpression" && isName(n.expression.callee.object, "console");

/** `tries++`, `++tries`, `tries += 1` of the loop's counter. */
function counts(n: Node, counter: string | undefined): boolean {
  const e = n.type === "ExpressionStatement" ? n.expression : undefined;
  if (!counter || !e) return false;
  if (e.type === "UpdateExpression") return e.operator === "++" && isName(e.argument, counter);
  return e.type === "AssignmentExpression" && e.operator === "+=" && isName(e.left, counter) &&
    e.right.type === "Literal" && e.right.value === 1;
}

/** The one assignment `b = <draw>` of a loop's body (beside its counter's count), else undefined. */
function drawOf(body: Node, counter: string | undefined): { name: string; draw: Node } | undefined {
  const list: Node[] = body.type === "BlockStatement" ? body.body : [body];
  // A counter's count and a `console.log` of the draw change nothing the flow sends.
  const rest = list.filter((n) => !counts(n, counter) && !logged(n));
  const e = rest.length === 1 && rest[0].type === "ExpressionStatement"
    ? rest[0].expression
    : undefined;
  if (e?.type !== "AssignmentExpression" || e.operator !== "=" || !isName(e.left)) return undefined;
  return { name: e.left.name, draw: e.right };
}

/**
 * What the local a loop draws again holds after it, `{ name, value }`; undefined when the loop
 * is not one drawing a number until it differs, or no value of the draw's range differs.
 * `value` evaluates a node now; `current` is what a local holds before the loop.
 *
 * @example
 * ```ts
 * import { distinctDraw } from "./distinct_draw.ts";
 * import { parseScript } from "./parse.ts";
 * const p = parseScript("while (b === a) { b = _.random(1, 100); }");
 * if (!p.ok) throw new Error(p.why);
 * const lit = (n: { type: string; value?: unknown; name?: string }) =>
 *   n.type === "Literal" ? { k: "lit" as const, value: n.value }
 *   : n.name === "a" ? { k: "gen" as const, text: "${RANDOM.DIGITS_2}" } : undefined;
 * const b = distinctDraw(p.program.body[0], lit, () => ({ k: "gen", text: "${RANDOM.DIGITS_2}" }));
 * if (b?.name !== "b" || b.value.k !== "lit" || b.value.value !== 1) throw new Error(JSON.stringify(b));
 * ```
 */
export function distinctDraw(
  node: Node,
  value: Value,
  current: (name: string) => Sym | undefined,
): { name: string; value: Sym } | undefined {
  if (node.type !== "WhileStatement" && node.type !== "DoWhileStatement") return undefined;
  const test = comparison(node.test);
  const made = test && drawOf(node.body, test.counter);
  const range = made && drawRange(made.draw, value);
  const avoid = range && avoided(test.compared, made.name, value);
  if (!made || !avoid) return undefined;
  // A `while` keeps the value drawn before it when it never meets the other; a `do` draws first.
  const first = node.type === "WhileStatement" ? current(made.name) : firstDraw(made.draw, value);
  const kept = apart(first, avoid) ? first : least(range, avoid);
  return kept && { name: made.name, value: kept };
}

/** A `do … while`'s first draw: the made value of its kind (random_number.ts, lodash). */
function firstDraw(draw: Node, value: Value): Sym | undefined {
  return randomNumber(draw, value) ?? lodashRandom(draw.arguments?.map(value) ?? []);
}

/** Whether a value can never lie in a range. */
function apart(s: Sym | undefined, avoid: [number, number]): s is Sym {
  const held = heldRange(s);
  return held !== undefined && (held[1] < avoid[0] || held[0] > avoid[1]);
}

/**
 * A value of a range outside another: made digits where a count of them stays in the part left at
 * one end (`while (n < 10)` of 0 to 999: `${RANDOM.DIGITS_3}`), else the least
 * number outside, the same in every run; undefined: none.
 */
function least(range: [number, number], avoid: [number, number]): Sym | undefined {
  const n = range[0] < avoid[0] ? range[0] : Math.max(range[0], avoid[1] + 1);
  if (n > range[1]) return undefined;
  // The part above the avoided numbers, or below them: a random draw may stay inside it.
  const top = avoid[1] >= range[1] ? avoid[0] - 1 : avoid[0] <= range[0] ? range[1] : undefined;
  // A number known now, as a draw no count of digits stays in is: sent as a number in JSON.
  return (top === undefined ? undefined : wholeInRange(n, top)) ?? { k: "lit", value: n };
}

/**
 * {@linkcode distinctDraw} in a script's walk: the local it draws again holds its value after the
 * loop (any counter it counts is unknown); false, nothing changed, when the loop is no such draw.
 *
 * @example
 * ```ts
 * import { drawnAgain } from "./distinct_draw.ts";
 * import { parseScript } from "./parse.ts";
 * const p = parseScript("while (b === 7) { b = _.random(1, 9); }");
 * if (!p.ok) throw new Error(p.why);
 * const ctx = { scope: new Map(), tests: new Map(), variable: () => undefined };
 * if (!drawnAgain(p.program.body[0], ctx) || ctx.scope.get("b")?.k !== "lit") throw new Error();
 * ```
 */
export function drawnAgain(node: Node, ctx: EvalContext): boolean {
  const value = (n: Node) => evaluate(n, ctx, 0);
  const drawn = distinctDraw(node, value, (name) => ctx.scope.get(name));
  if (!drawn) return false;
  forgetAssigned(node, ctx.scope);
  ctx.scope.set(drawn.name, drawn.value);
  return true;
}

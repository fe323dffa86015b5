/**
 * What a script makes at run time, as the flow expression that makes one
 * like it: the time (`Date.now()`, `new Date().toISOString()`) as
 * `${NOW.…}`, of the type Postman sends, and `Math.random()` as random hex.
 *
 * @module
 */
import type { Node } from "./parse.ts";
import type { Sym } from "./sym.ts";
// moment.js's dates are made values too (read with the other calls by eval.ts).
export { momentCall } from "./moment.ts";

/**
 * The time in milliseconds, as Postman sends it: a number alone, its digits
 * joined into text (`"user-" + Date.now()`). Such a name is unique by the
 * clock, and a server or a check may read its digits as that time, so it is
 * the time, never random digits of its shape (two alike in one flow run are
 * kept apart by apart.ts).
 */
const MILLIS: Sym = { k: "gen", text: "${NOW.UNIX_MS}" };

/** Calls whose value is made at run time, and the flow expression that makes one like it. */
const MADE = new Map<string, Sym>([
  ["Date.now", MILLIS],
  ["Math.random", { k: "gen", text: "${RANDOM.HEX_8}" }],
  // `require('uuid')` and its `v4` (required.ts): a fresh v4 UUID each call.
  ["require:uuid", { k: "gen", text: "${RANDOM.UUID}" }],
  ["require:uuid.v4", { k: "gen", text: "${RANDOM.UUID}" }],
]);

/** `new Date().toISOString()` and the like: the time of the request. */
const NEW_DATE = new Map<string, Sym>([
  ["toISOString", { k: "gen", text: "${NOW.ISO}" }],
  ["toJSON", { k: "gen", text: "${NOW.ISO}" }],
  ["getTime", MILLIS],
  ["valueOf", MILLIS],
]);

/**
 * A method of `new Date()` (the time now) that {@linkcode NEW_DATE} knows,
 * or of `new Date(Date.now() ± ms)` with `ms` known now (the time moved by
 * it, in whole seconds), else undefined.
 *
 * @example
 * ```ts
 * import { newDateCall } from "./made.ts";
 * import { parseScript } from "./parse.ts";
 * const p = parseScript("new Date().toISOString()");
 * if (!p.ok) throw new Error();
 * const made = newDateCall(p.program.body[0].expression);
 * if (made?.k !== "gen" || made.text !== "${NOW.ISO}") throw new Error(JSON.stringify(made));
 * const q = parseScript("new Date(Date.now() + 7 * 86400000).toISOString()");
 * if (!q.ok) throw new Error();
 * const week = newDateCall(q.program.body[0].expression);
 * if (week?.k !== "gen" || week.text !== "${NOW.ISO+7d}") throw new Error(JSON.stringify(week));
 * ```
 */
export function newDateCall(node: Node): Sym | undefined {
  const c = node.callee;
  if (c.type !== "MemberExpression" || c.computed || c.object.type !== "NewExpression") {
    return undefined;
  }
  const callee = c.object.callee;
  const date = callee.type === "Identifier" && callee.name === "Date";
  if (!date || node.arguments.length !== 0) return undefined;
  const made = NEW_DATE.get(c.property.name);
  if (c.object.arguments.length === 0 || !made) return made;
  // `new Date(Date.now() + 7 * 86400000)`: the time moved by milliseconds known now.
  const by = c.object.arguments.length === 1 ? dateShift(c.object.arguments[0]) : undefined;
  return by === undefined ? undefined : shifted(made, by);
}

/**
 * Milliseconds `Date.now() ± n` moves the time by (`n` literal arithmetic), else undefined.
 *
 * @example
 * ```ts
 * import { dateShift } from "./made.ts";
 * import { parseScript } from "./parse.ts";
 * const p = parseScript("Date.now() - 2 * 1000");
 * if (!p.ok || dateShift(p.program.body[0].expression) !== -2000) throw new Error();
 * ```
 */
export function dateShift(n: Node): number | undefined {
  if (n.type !== "BinaryExpression" || !["+", "-"].includes(n.operator) || !isMillis(n.left)) {
    return undefined;
  }
  const by = constant(n.right, 0);
  return by === undefined ? undefined : n.operator === "-" ? -by : by;
}

/** A number written with literals and `+ - * /` (`7 * 24 * 60 * 60 * 1000`), else undefined. */
function constant(n: Node, depth: number): number | undefined {
  if (n.type === "Literal") return typeof n.value === "number" ? n.value : undefined;
  if (n.type !== "BinaryExpression" || depth > 20) return undefined;
  const [a, b] = [constant(n.left, depth + 1), constant(n.right, depth + 1)];
  if (a === undefined || b === undefined) return undefined;
  const ops: Record<string, number> = { "+": a + b, "-": a - b, "*": a * b, "/": a / b };
  return Number.isFinite(ops[n.operator]) ? ops[n.operator] : undefined;
}

/** The units a shift is written in, largest first (docs/expressions.md). */
const SHIFT_UNITS: [string, number][] = [
  ["d", 86_400_000],
  ["h", 3_600_000],
  ["m", 60_000],
  ["s", 1_000],
];

/** A time made so, moved by `ms` in the largest unit that divides it; none under a second. */
function shifted(made: Sym, ms: number): Sym | undefined {
  const unit = SHIFT_UNITS.find(([, size]) => ms % size === 0);
  if (made.k !== "gen" || !unit) return undefined;
  const shift = ms === 0 ? "" : `${ms < 0 ? "-" : "+"}${Math.abs(ms) / unit[1]}${unit[0]}`;
  return { k: "gen", text: made.text.replace(/\}$/, `${shift}}`) };
}

/**
 * `+new Date()`: the time in milliseconds, as `Date.now()` (the unary plus
 * makes the date a number); else undefined.
 *
 * @example
 * ```ts
 * import { plusDate } from "./made.ts";
 * import { parseScript } from "./parse.ts";
 * const p = parseScript("+ new Date()");
 * if (!p.ok) throw new Error();
 * const made = plusDate(p.program.body[0].expression);
 * if (made?.k !== "gen" || made.text !== "${NOW.UNIX_MS}") throw new Error(JSON.stringify(made));
 * ```
 */
export function plusDate(node: Node): Sym | undefined {
  const a = node.argument;
  const now = node.operator === "+" && a.type === "NewExpression" &&
    a.callee.type === "Identifier" && a.callee.name === "Date" && a.arguments.length === 0;
  return now ? MILLIS : undefined;
}

/** Whole seconds: `Math.floor(Date.now() / 1000)`, a number as Postman's `{{$timestamp}}`. */
const SECONDS: Sym = { k: "gen", text: "${NOW.UNIX}" };

/** Whether `node` is `Date.now()` or `new Date().getTime()`: the time in milliseconds. */
function isMillis(node: Node): boolean {
  if (node.type !== "CallExpression" || node.arguments.length > 0) return false;
  const c = node.callee;
  const dateNow = c.type === "MemberExpression" && !c.computed &&
    c.object.type === "Identifier" && c.object.name === "Date" && c.property.name === "now";
  return dateNow || newDateCall(node) === MILLIS;
}

/**
 * `Math.floor(Date.now() / 1000)` (or `round`, `trunc`): Unix seconds, else
 * undefined. Only whole: `Date.now() / 1000` alone is a fraction, which no
 * flow expression makes.
 *
 * @example
 * ```ts
 * import { secondsCall } from "./made.ts";
 * import { parseScript } from "./parse.ts";
 * const p = parseScript("Math.floor(Date.now() / 1000)");
 * if (!p.ok) throw new Error();
 * const made = secondsCall(p.program.body[0].expression);
 * if (made?.k !== "gen" || made.text !== "${NOW.UNIX}") throw new Error(JSON.stringify(made));
 * ```
 */
export function secondsCall(node: Node): Sym | undefined {
  const c = node.callee;
  const whole = c.type === "MemberExpression" && !c.computed && c.object.type === "Identifier" &&
    c.object.name === "Math" && ["floor", "round", "trunc"].includes(c.property.name);
  const [arg] = node.arguments;
  if (!whole || node.arguments.length !== 1 || arg.type !== "BinaryExpression") return undefined;
  const perSecond = arg.operator === "/" && arg.right.type === "Literal" &&
    arg.right.value === 1000;
  return perSecond && isMillis(arg.left) ? SECONDS : undefined;
}

/**
 * The made value of a call by its dotted name (`Date.now`), else undefined.
 *
 * @example
 * ```ts
 * import { madeBy } from "./made.ts";
 * const made = madeBy("Date.now");
 * if (made?.k !== "gen" || made.text !== "${NOW.UNIX_MS}") throw new Error();
 * if (madeBy("constructor") !== undefined) throw new Error();
 * ```
 */
export function madeBy(callee: string): Sym | undefined {
  return MADE.get(callee);
}

/** The time in milliseconds a made value holds, unshifted. */
const UNSHIFTED_MS = "${NOW.UNIX_MS}";

/**
 * A made value kept apart from the values made before it in the same flow run:
 * a flow's made values are all made when the run starts, so two variables
 * made alike (`"user" + Date.now()` for two users) would be the same text,
 * where Newman's are a request or more apart. The later one reads the time a
 * second on (`${NOW.UNIX_MS+1s}`), then two, as many as needed.
 *
 * @example
 * ```ts
 * import { apart } from "./made.ts";
 * if (apart("u${NOW.UNIX_MS}", ["u${NOW.UNIX_MS}"]) !== "u${NOW.UNIX_MS+1s}") throw new Error();
 * if (apart("u${NOW.UNIX_MS}", ["v${NOW.UNIX_MS}"]) !== "u${NOW.UNIX_MS}") throw new Error();
 * ```
 */
export function apart(value: string, before: Iterable<string>): string {
  if (!value.includes(UNSHIFTED_MS)) return value;
  const taken = new Set(before);
  let out = value;
  for (let s = 1; taken.has(out) && s <= taken.size; s++) {
    out = value.replace(UNSHIFTED_MS, `\${NOW.UNIX_MS+${s}s}`);
  }
  return out;
}

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
 * The time in milliseconds, as Postman sends it: a number. Joined into text
 * (`"user-" + Date.now()`) it is a name made unique by the clock, which
 * flows run side by side (`--jobs`) would share within a millisecond: 13
 * random digits there, the same shape.
 */
const MILLIS: Sym = { k: "gen", text: "${NOW.UNIX_MS}", inText: "${RANDOM.DIGITS_13}" };

/** Calls whose value is made at run time, and the flow expression that makes one like it. */
const MADE = new Map<string, Sym>([
  ["Date.now", MILLIS],
  ["Math.random", { k: "gen", text: "${RANDOM.HEX_8}" }],
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
 * else undefined.
 *
 * @example
 * ```ts
 * import { newDateCall } from "./made.ts";
 * import { parseScript } from "./parse.ts";
 * const p = parseScript("new Date().toISOString()");
 * if (!p.ok) throw new Error();
 * const made = newDateCall(p.program.body[0].expression);
 * if (made?.k !== "gen" || made.text !== "${NOW.ISO}") throw new Error(JSON.stringify(made));
 * ```
 */
export function newDateCall(node: Node): Sym | undefined {
  const c = node.callee;
  if (c.type !== "MemberExpression" || c.computed || c.object.type !== "NewExpression") {
    return undefined;
  }
  const callee = c.object.callee;
  const now = callee.type === "Identifier" && callee.name === "Date" &&
    c.object.arguments.length === 0;
  return now && node.arguments.length === 0 ? NEW_DATE.get(c.property.name) : undefined;
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
 * if (made?.k !== "gen" || made.text !== "${NOW.UNIX_MS}" || made.inText !== "${RANDOM.DIGITS_13}") throw new Error();
 * if (madeBy("constructor") !== undefined) throw new Error();
 * ```
 */
export function madeBy(callee: string): Sym | undefined {
  return MADE.get(callee);
}

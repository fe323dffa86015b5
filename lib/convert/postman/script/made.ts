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

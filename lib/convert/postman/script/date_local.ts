/**
 * A JavaScript `Date` a script keeps in a local and moves before writing it,
 * as booking and report collections make a check-in or a period:
 * `const d = new Date(); d.setDate(d.getDate() + 3);
 * pm.environment.set("day", d.toISOString().slice(0, 10))` (Newman 6.2.2
 * sent the day three days on). `new Date()` (or `new Date(Date.now() ± ms)`,
 * or `new Date(other)` of such a date) is the time of the request, held as
 * `${NOW.ISO…}` marked `date`; a statement
 * `d.setDate(d.getDate() ± n)` (hours, minutes, seconds alike; months and
 * years as moment.ts counts them, 30 and 365 days) moves `d`, and any other
 * `set…` call on it leaves it unknown, never at its old time. Its
 * `toISOString()` is `${NOW.ISO…}`, `getTime()` `${NOW.UNIX_MS…}`, the
 * day cut from ISO text (`.slice(0, 10)`, `.substring(0, 10)`,
 * `.split("T")[0]`) `${NOW.DATE…}`, the same UTC day, and the text cut short
 * of its zone as servers without time zones take it `${NOW.DATETIME…}` (to
 * the second: `.slice(0, 19)`, `.slice(0, -5)`, `.split(".")[0]`) or
 * `${NOW.DATETIME_MS…}` (`.slice(0, 23)`, `.slice(0, -1)`, `.replace("Z", "")`).
 *
 * @module
 */
import type { Node } from "./parse.ts";
import type { Sym } from "./sym.ts";
import { dateShift, newDateCall } from "./made.ts";
import { fixedAs, leastMade } from "./moment.ts";

const MS: Record<string, number> = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** The setters a shift is read from, each with its getter and the milliseconds of one. */
const SETTERS = new Map<string, [string, number]>([
  ["setDate", ["getDate", MS.d]],
  ["setHours", ["getHours", MS.h]],
  ["setMinutes", ["getMinutes", MS.m]],
  ["setSeconds", ["getSeconds", MS.s]],
  ["setMonth", ["getMonth", 30 * MS.d]],
  ["setFullYear", ["getFullYear", 365 * MS.d]],
]);

/** A made time read back: its format and offset in milliseconds; undefined for anything else. */
function timeOf(s: Sym | undefined): { format: string; ms: number } | undefined {
  const m = s?.k === "gen"
    ? /^\$\{NOW\.(ISO|UNIX_MS)(?:([+-])(\d+)([smhdw]))?\}$/.exec(s.text)
    : null;
  if (!m) return undefined;
  const unit = m[4] === "w" ? 7 * MS.d : MS[m[4]];
  return {
    format: m[1],
    ms: m[2] === undefined ? 0 : (m[2] === "-" ? -1 : 1) * Number(m[3]) * unit,
  };
}

/** `${NOW.<format>±…}` of `ms`, in the largest unit that divides it; none under a second. */
function written(format: string, ms: number, date: boolean): Sym | undefined {
  const unit = ["d", "h", "m", "s"].find((u) => ms % MS[u] === 0);
  if (!unit) return undefined;
  const shift = ms === 0 ? "" : `${ms < 0 ? "-" : "+"}${Math.abs(ms) / MS[unit]}${unit}`;
  const text = `\${NOW.${format}${shift}}`;
  return date ? { k: "gen", text, date: true } : { k: "gen", text };
}

/** Whether `s` is a `Date` object a script holds (not the text it writes). */
const isDate = (s: Sym | undefined) => s?.k === "gen" && s.date === true;

/**
 * `new Date()`, `new Date(Date.now() ± ms)` or `new Date(d)` of a date held so: a `Date`
 * object; undefined for any other `new`.
 *
 * @example
 * ```ts
 * import { newDate } from "./date_local.ts";
 * import { parseScript } from "./parse.ts";
 * const p = parseScript("new Date(Date.now() + 2 * 86400000)");
 * if (!p.ok) throw new Error();
 * const d = newDate(p.program.body[0].expression, () => undefined);
 * if (d?.k !== "gen" || d.text !== "${NOW.ISO+2d}" || !d.date) throw new Error(JSON.stringify(d));
 * ```
 */
export function newDate(node: Node, evaluate: (n: Node) => Sym | undefined): Sym | undefined {
  const date = node.callee.type === "Identifier" && node.callee.name === "Date";
  if (!date || node.arguments.length > 1) return undefined;
  if (node.arguments.length === 0) return written("ISO", 0, true);
  const of = evaluate(node.arguments[0]);
  if (isDate(of)) return of;
  const by = dateShift(node.arguments[0]);
  return by === undefined ? undefined : written("ISO", by, true);
}

/** `d.toISOString()`, `d.getTime()` of a date held so. */
function dateWrites(on: Sym | undefined, method: string, argc: number): Sym | undefined | null {
  const at = isDate(on) ? timeOf(on) : undefined;
  if (!at) return null;
  if (argc > 0) return undefined;
  if (method === "toISOString" || method === "toJSON") return written("ISO", at.ms, false);
  if (method === "getTime" || method === "valueOf") return written("UNIX_MS", at.ms, false);
  return undefined;
}

/**
 * The formats a cut of ISO text (`2026-11-28T09:30:00.123Z`, always 24 characters) gives, by where
 * it ends: its day, to the second, to the millisecond. A negative end counts from the end, as
 * `slice` reads it (`substring` and `substr` read it as 0: no cut of these).
 */
const CUT_ENDS = new Map<number, string>([
  [10, "DATE"],
  [19, "DATETIME"],
  [-5, "DATETIME"],
  [23, "DATETIME_MS"],
  [-1, "DATETIME_MS"],
]);

/** The literal number `n` (`-1` is written as a unary minus). */
function literalNumber(n: Node): number | undefined {
  if (n.type === "Literal" && typeof n.value === "number") return n.value;
  const minus = n.type === "UnaryExpression" && n.operator === "-" && n.prefix !== false;
  return minus && n.argument.type === "Literal" && typeof n.argument.value === "number"
    ? -n.argument.value
    : undefined;
}

/** The format `.slice(0, end)` (`substring`, `substr`) or `.replace("Z", "")` of ISO text gives. */
function cutFormat(method: string, args: Node[]): string | undefined {
  if (method === "replace") {
    const [from, to] = args;
    const z = args.length === 2 && from.type === "Literal" && from.value === "Z";
    return z && to.type === "Literal" && to.value === "" ? "DATETIME_MS" : undefined;
  }
  if (!["slice", "substring", "substr"].includes(method) || args.length !== 2) return undefined;
  const [start, end] = args.map(literalNumber);
  if (start !== 0 || end === undefined || (end < 0 && method !== "slice")) return undefined;
  return CUT_ENDS.get(end);
}

/** `.slice(0, 10)` (`substring`, `substr`) of ISO text: its day; the other cuts, as CUT_ENDS. */
function dayCut(on: Sym | undefined, method: string, args: Node[]): Sym | undefined | null {
  const at = timeOf(on);
  const format = cutFormat(method, args);
  return at?.format === "ISO" && !isDate(on) && format ? written(format, at.ms, false) : null;
}

/**
 * A call on a `Date` a script holds or makes (its ISO text, its milliseconds), or the day cut from
 * ISO text made so; `null` when the call is none of these (the caller reads it otherwise),
 * undefined when it is one that cannot be said (`d.toLocaleDateString()`).
 *
 * @example
 * ```ts
 * import { dateCall } from "./date_local.ts";
 * import { parseScript } from "./parse.ts";
 * const p = parseScript("d.toISOString().slice(0, 10)");
 * if (!p.ok) throw new Error();
 * const held = new Map([["d", { k: "gen" as const, text: "${NOW.ISO+3d}", date: true as const }]]);
 * const read = (n: any): any =>
 *   n.type === "Identifier" ? held.get(n.name) : dateCall(n, read);
 * const day = read(p.program.body[0].expression);
 * if (day?.k !== "gen" || day.text !== "${NOW.DATE+3d}") throw new Error(JSON.stringify(day));
 * ```
 */
export function dateCall(
  node: Node,
  evaluate: (n: Node) => Sym | undefined,
): Sym | undefined | null {
  const c = node.callee;
  if (c.type !== "MemberExpression" || c.computed) return null;
  // `new Date().toISOString()` written in one (made.ts).
  const made = newDateCall(node);
  if (made) return made;
  const on = evaluate(c.object);
  const out = dateWrites(on, c.property.name, node.arguments.length) ??
    dayCut(on, c.property.name, node.arguments);
  return out && fixedAs(out, on?.k === "gen" && on.fixed);
}

/**
 * `iso.split("T")[0]` of ISO text made so: its day (`split(".")[0]`: the text to the second); null
 * for any other member.
 *
 * @example
 * ```ts
 * import { isoDay } from "./date_local.ts";
 * import { parseScript } from "./parse.ts";
 * const p = parseScript("new Date().toISOString().split('T')[0]");
 * if (!p.ok) throw new Error();
 * const day = isoDay(p.program.body[0].expression, () => ({ k: "gen", text: "${NOW.ISO}" }));
 * if (day?.k !== "gen" || day.text !== "${NOW.DATE}") throw new Error(JSON.stringify(day));
 * ```
 */
export function isoDay(node: Node, evaluate: (n: Node) => Sym | undefined): Sym | undefined | null {
  const split = node.object;
  const first = node.computed && node.property.type === "Literal" && node.property.value === 0;
  const c = split?.type === "CallExpression" ? split.callee : undefined;
  const by = c?.type === "MemberExpression" && !c.computed && c.property.name === "split" &&
      split.arguments.length === 1
    ? ({ T: "DATE", ".": "DATETIME" } as Record<string, string>)[split.arguments[0].value]
    : undefined;
  if (!first || !by) return null;
  const on = evaluate(c.object);
  const at = isDate(on) ? undefined : timeOf(on);
  return at?.format === "ISO"
    ? fixedAs(written(by, at.ms, false), on?.k === "gen" && on.fixed)
    : null;
}

/** The shift `d.setX(d.getX() ± n)` makes, in milliseconds; undefined for any other set. */
function setShift(call: Node, held: Sym, evaluate: (n: Node) => Sym | undefined) {
  const [getter, size] = SETTERS.get(call.callee.property.name) ?? [];
  const arg = call.arguments.length === 1 ? call.arguments[0] : undefined;
  if (!getter || arg?.type !== "BinaryExpression" || !["+", "-"].includes(arg.operator)) return;
  const get = arg.left;
  const read = get.type === "CallExpression" && get.arguments.length === 0 &&
    get.callee.type === "MemberExpression" && get.callee.property.name === getter;
  // `to.setDate(from.getDate() + 1)` moves `to` to a day after `from`: the same when both hold
  // the same time, as a copy made with `new Date(from)` does.
  const same = read && evaluate(get.callee.object)?.k === "gen" &&
    (evaluate(get.callee.object) as { text: string }).text === (held as { text: string }).text;
  // A made count (`_.random(1, 30)`) is taken at its least, as moment.ts takes one.
  const n = evaluate(arg.right);
  const count = n?.k === "lit" ? n.value : leastMade(n);
  if (!same || !Number.isInteger(count)) return;
  return { ms: (arg.operator === "-" ? -1 : 1) * (count as number) * size!, fixed: n?.k !== "lit" };
}

/**
 * The `Date` locals a statement's `set…` calls move: each name with where it is now (undefined:
 * unknown), and whether the statement is nothing but one such call (it only moves).
 *
 * @example
 * ```ts
 * import { dateSets } from "./date_local.ts";
 * import { parseScript } from "./parse.ts";
 * const p = parseScript("d.setDate(d.getDate() + 3);");
 * if (!p.ok) throw new Error();
 * const held = new Map([["d", { k: "gen" as const, text: "${NOW.ISO}", date: true as const }]]);
 * const read = (n: any): any => n.type === "Identifier" ? held.get(n.name) : n.type === "Literal" ? { k: "lit", value: n.value } : undefined;
 * const { moves, only } = dateSets(p.program.body[0], read);
 * if (!only || moves[0][0] !== "d" || (moves[0][1] as { text: string }).text !== "${NOW.ISO+3d}") {
 *   throw new Error(JSON.stringify(moves));
 * }
 * ```
 */
export function dateSets(
  statement: Node,
  evaluate: (n: Node) => Sym | undefined,
): { moves: [string, Sym | undefined][]; only: boolean } {
  const moves: [string, Sym | undefined][] = [];
  const calls = setCalls(statement);
  for (const call of calls) {
    const name = call.callee.object.name;
    const held = evaluate(call.callee.object);
    if (!isDate(held)) continue;
    const by = setShift(call, held!, evaluate);
    const at = by === undefined ? undefined : timeOf(held);
    const to = at ? written("ISO", at.ms + by!.ms, true) : undefined;
    moves.push([name, fixedAs(to, by?.fixed || (held as { fixed?: true }).fixed)]);
  }
  const e = statement.type === "ExpressionStatement" ? statement.expression : undefined;
  // A set not understood stays beside its step as a comment, as any other line.
  const only = moves.length === 1 && moves[0][1] !== undefined && calls.length === 1;
  return { moves, only: only && calls[0] === e };
}

/** How many nodes a statement's walk reads: scripts are short, a bound keeps it linear. */
const MAX_NODES = 10_000;

/** The calls `name.setX(…)` inside `statement`, outside any function written in it. */
function setCalls(statement: Node): Node[] {
  const found: Node[] = [];
  const stack: Node[] = [statement];
  for (let seen = 0; stack.length > 0 && seen < MAX_NODES; seen++) {
    const at = stack.pop()!;
    const c = at.type === "CallExpression" ? at.callee : undefined;
    const set = c?.type === "MemberExpression" && !c.computed && c.object.type === "Identifier" &&
      /^set[A-Z]/.test(c.property.name);
    if (set) found.push(at);
    if (/Function/.test(at.type)) continue;
    for (const child of Object.values(at)) {
      for (const n of Array.isArray(child) ? child : [child]) {
        if (n && typeof n === "object" && typeof n.type === "string") stack.push(n);
      }
    }
  }
  return found;
}

/**
 * moment.js dates a script makes (`const moment = require('moment')`, which
 * Postman's sandbox gives): `moment()` is the time of the request,
 * `.add(n, unit)` and `.subtract(n, unit)` shift it, `.format("YYYY-MM-DD")`
 * is its day, `.toISOString()` its ISO text, `.unix()` and `.valueOf()` its
 * seconds and milliseconds; `moment(day)` of a day made so is that day. Each
 * is the flow's `${NOW.…}` with the offset (a `gen` value), so a booking's
 * check-in "a year from today" is sent as a date in every run, where the
 * converter had written an empty text. A flow's offsets are fixed lengths:
 * a year is 365 days and a month 30 (moment counts the calendar, so its date
 * can differ by a day or two); a moment of a response part,
 * `moment(json.date).format("YYYY-MM-DD")`, is the pseudo-path `day:<path>`,
 * which a comparison reads (pseudo.ts).
 *
 * @module
 */
import type { Node } from "./parse.ts";
import type { Sym } from "./sym.ts";

const MS: Record<string, number> = {
  s: 1_000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 604_800_000,
};

/** moment's unit names (`add(1, "y")`, `"years"`, `"days"`), in milliseconds. */
const UNITS = new Map<string, number>([
  ...["y", "year", "years"].map((u): [string, number] => [u, 365 * MS.d]),
  ...["M", "month", "months"].map((u): [string, number] => [u, 30 * MS.d]),
  ...["w", "week", "weeks"].map((u): [string, number] => [u, MS.w]),
  ...["d", "day", "days"].map((u): [string, number] => [u, MS.d]),
  ...["h", "hour", "hours"].map((u): [string, number] => [u, MS.h]),
  ...["m", "minute", "minutes"].map((u): [string, number] => [u, MS.m]),
  ...["s", "second", "seconds"].map((u): [string, number] => [u, MS.s]),
]);

/** A moment as the flow writes it: the time (`ISO`) or its day (`DATE`), and the offset. */
interface Moment {
  format: "ISO" | "DATE";
  offsetMs: number;
}

/** `${NOW.ISO+1d}` and the like, read back; undefined for any other value. */
function momentOf(s: Sym | undefined): Moment | undefined {
  if (s?.k !== "gen") return undefined;
  const m = /^\$\{NOW\.(ISO|DATE)(?:([+-])(\d+)([smhdw]))?\}$/.exec(s.text);
  if (!m) return undefined;
  const offsetMs = m[2] === undefined ? 0 : (m[2] === "-" ? -1 : 1) * Number(m[3]) * MS[m[4]];
  return { format: m[1] as Moment["format"], offsetMs };
}

/**
 * The flow expression of a moment (`moment` set: an object whose methods are read) or of
 * the value it writes; undefined when its offset is no whole number of seconds.
 */
function written(format: string, offsetMs: number, moment: boolean): Sym | undefined {
  const unit = ["d", "h", "m", "s"].find((u) => offsetMs % MS[u] === 0);
  if (!unit) return undefined;
  const sign = offsetMs < 0 ? "-" : "+";
  const shift = offsetMs === 0 ? "" : `${sign}${Math.abs(offsetMs) / MS[unit]}${unit}`;
  const text = `\${NOW.${format}${shift}}`;
  return moment ? { k: "gen", text, moment: true } : { k: "gen", text };
}

/**
 * The least value a made whole number can take (`${RANDOM.DIGITS_2}`: 10), else undefined: a
 * random count (`add(_.random(1, 14), "days")`) shifts by a count the script could have drawn,
 * the same in every run, since a flow's `${NOW…}` offset is written, not drawn.
 *
 * @example
 * ```ts
 * import { leastMade } from "./moment.ts";
 * if (leastMade({ k: "gen", text: "${RANDOM.DIGITS_2}" }) !== 10) throw new Error();
 * if (leastMade({ k: "lit", value: 3 }) !== undefined) throw new Error();
 * ```
 */
export function leastMade(n: Sym | undefined): number | undefined {
  const digits = n?.k === "gen" ? n.text.match(/^\$\{RANDOM\.DIGITS_(\d+)\}$/)?.[1] : undefined;
  return digits === undefined ? undefined : 10 ** (Number(digits) - 1);
}

/** `add(n, unit)` or `subtract(n, unit)` of a moment: the moment shifted. */
function shifted(on: Moment, sign: number, args: (Sym | undefined)[]): Sym | undefined {
  const [n, unit] = args;
  const ms = unit?.k === "lit" ? UNITS.get(String(unit.value)) : undefined;
  const count = n?.k === "lit" ? n.value : leastMade(n);
  if (!Number.isInteger(count) || !ms) return undefined;
  const by = sign * (count as number) * ms;
  // A day shifted by hours is no longer a day: moment keeps the time, the flow has none.
  const to = on.format === "DATE" && by % MS.d !== 0
    ? undefined
    : written(on.format, on.offsetMs + by, true);
  return n?.k === "lit" ? to : fixedAs(to, true);
}

/** What a moment writes: its day, its ISO text, its seconds or milliseconds. */
function writes(on: Moment, name: string, args: (Sym | undefined)[]): Sym | undefined {
  const [pattern] = args;
  if (name === "format") {
    const day = pattern?.k === "lit" && pattern.value === "YYYY-MM-DD";
    return day ? written("DATE", on.offsetMs, false) : undefined;
  }
  if (on.format === "DATE" || args.length > 0) return undefined;
  if (name === "toISOString") return written("ISO", on.offsetMs, false);
  if (on.offsetMs !== 0) return undefined;
  return { k: "gen", text: name === "unix" ? "${NOW.UNIX}" : "${NOW.UNIX_MS}" };
}

/** A moment's method: a shifted moment, or the value it writes. */
function method(name: string, on: Moment, args: (Sym | undefined)[]): Sym | undefined {
  if (name === "add" || name === "subtract") return shifted(on, name === "add" ? 1 : -1, args);
  return writes(on, name, args);
}

/** `moment()` (now) or `moment(x)`: of a day or time made so, of a response part (a path). */
function created(node: Node, evaluate: (n: Node) => Sym | undefined): Sym | undefined {
  if (node.arguments.length === 0) return { k: "gen", text: "${NOW.ISO}", moment: true };
  if (node.arguments.length !== 1) return undefined;
  const of = evaluate(node.arguments[0]);
  if (of?.k === "path" && of.path.startsWith("$.")) return { k: "path", path: `moment:${of.path}` };
  const at = momentOf(of);
  return at ? written(at.format, at.offsetMs, true) : undefined;
}

/** `moment(part).format("YYYY-MM-DD")`: the pseudo-path of the part's day. */
function partDay(path: string, name: string, args: (Sym | undefined)[]): Sym | undefined {
  const [pattern] = args;
  const day = name === "format" && args.length === 1 && pattern?.k === "lit" &&
    pattern.value === "YYYY-MM-DD";
  return day ? { k: "path", path: `day:${path.slice("moment:".length)}` } : undefined;
}

/**
 * What a moment.js call means: `moment()`, `moment(day)`, a method of a
 * moment; `null` when the call is none of these (the caller reads it
 * otherwise), undefined when it is one that cannot be said. `library` is
 * false when the script named something else `moment` (a `require` is not
 * read, so the library's name holds nothing known).
 *
 * @example
 * ```ts
 * import { momentCall } from "./moment.ts";
 * import { parseScript } from "./parse.ts";
 * const p = parseScript("moment().add(1, 'y').format('YYYY-MM-DD')");
 * if (!p.ok) throw new Error();
 * const call = p.program.body[0].expression;
 * const read = (n: any): any => {
 *   if (n.type === "Literal") return { k: "lit", value: n.value };
 *   return momentCall(n, read);
 * };
 * const day = read(call);
 * if (day?.k !== "gen" || day.text !== "${NOW.DATE+365d}") throw new Error(JSON.stringify(day));
 * ```
 */
export function momentCall(
  node: Node,
  evaluate: (n: Node) => Sym | undefined,
  library = true,
): Sym | undefined | null {
  const c = node.callee;
  if (c.type === "Identifier" && c.name === "moment" && library) return created(node, evaluate);
  if (c.type !== "MemberExpression" || c.computed || !METHODS.has(c.property.name)) return null;
  const target = c.object;
  if (target.type !== "CallExpression" && target.type !== "Identifier") return null;
  const on = evaluate(target);
  const args = () => node.arguments.map(evaluate);
  if (on?.k === "path" && on.path.startsWith("moment:")) {
    return partDay(on.path, c.property.name, args());
  }
  const moment = on?.k === "gen" && on.moment ? momentOf(on) : undefined;
  return moment
    ? fixedAs(method(c.property.name, moment, args()), on?.k === "gen" && on.fixed)
    : null;
}

/**
 * `s` marked `fixed` when `fixed` (a random draw in it was taken at its least), as it was else.
 *
 * @example
 * ```ts
 * import { fixedAs } from "./moment.ts";
 * const s = fixedAs({ k: "gen", text: "${NOW.DATE+1d}" }, true);
 * if (s?.k !== "gen" || !s.fixed || fixedAs(s, false) !== s) throw new Error();
 * ```
 */
export function fixedAs(s: Sym | undefined, fixed: boolean | undefined): Sym | undefined {
  return fixed && s?.k === "gen" ? { ...s, fixed: true } : s;
}

/** The moment methods read here. */
const METHODS = new Set(["add", "subtract", "format", "toISOString", "unix", "valueOf"]);

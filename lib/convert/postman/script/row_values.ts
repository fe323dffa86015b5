/**
 * The values row_run.ts works a script out with, and what JavaScript does to
 * them: text, numbers, booleans, lists, objects of text keys, functions, and
 * a Postman variable's `{{name}}` text ({@linkcode Tpl}), which may only be
 * joined into text. Whatever else a script does to a value throws
 * {@linkcode Unsaid}: nothing is guessed.
 *
 * @module
 */
import type { Node } from "./parse.ts";

/** A Postman variable's text: kept as `{{name}}`, joined into text and nothing else. */
export class Tpl {
  /** Wraps Postman text holding `{{vars}}`. */
  constructor(readonly text: string) {}
}

/** A function or arrow the script made, with the scope it closes over. */
export interface Fn {
  params: string[];
  body: Node;
  env: Env;
}

/** A value as the script holds it. */
export type Value = string | number | boolean | undefined | null | Value[] | Tpl | Fn | {
  [k: string]: Value;
};

/** A scope: its names and the one around it. */
export type Env = { vars: Map<string, Value>; up?: Env };

/** Thrown where the script does what is not worked out here. */
export class Unsaid extends Error {}

/**
 * Whether `v` is a function the script made.
 *
 * @example
 * ```ts
 * import { isFn } from "./row_values.ts";
 * if (isFn({ a: 1 }) || !isFn({ params: [], body: { type: "X", start: 0, end: 0 }, env: { vars: new Map() } })) throw new Error();
 * ```
 */
export function isFn(v: Value): v is Fn {
  return typeof v === "object" && v !== null && !Array.isArray(v) && "body" in v && "env" in v;
}

/** Whether `v` is an object of text keys (not a list, a function or a variable's text). */
function isRecord(v: Value): v is { [k: string]: Value } {
  return typeof v === "object" && v !== null && !(v instanceof Tpl) && !Array.isArray(v) &&
    !isFn(v);
}

/**
 * The scope holding `name`; the outermost when none does (a sloppy-mode global).
 *
 * @example
 * ```ts
 * import { lookup } from "./row_values.ts";
 * const top = { vars: new Map([["a", 1]]) };
 * if (lookup({ vars: new Map(), up: top }, "a") !== top) throw new Error();
 * ```
 */
export function lookup(env: Env, name: string): Env {
  let at: Env = env;
  for (let e: Env | undefined = env; e; e = e.up) {
    if (e.vars.has(name)) return e;
    at = e;
  }
  return at;
}

/**
 * `self[k]`: a text's or list's `length`, a list's element, an object's member.
 *
 * @example
 * ```ts
 * import { member } from "./row_values.ts";
 * if (member(["a", "b"], "length") !== 2 || member({ k: "v" }, "k") !== "v") throw new Error();
 * ```
 */
export function member(self: Value, k: string | number): Value {
  if (k === "length" && (typeof self === "string" || Array.isArray(self))) return self.length;
  if (Array.isArray(self) && typeof k === "number") return self[k];
  if (isRecord(self)) return Object.hasOwn(self, k) ? self[k] : undefined;
  throw new Unsaid();
}

/**
 * `a + b` as text, where either may be a variable's text: `{{name}}` kept.
 *
 * @example
 * ```ts
 * import { join, Tpl } from "./row_values.ts";
 * const t = join(new Tpl("{{base}}"), "/a");
 * if (!(t instanceof Tpl) || t.text !== "{{base}}/a" || join("n", 1) !== "n1") throw new Error();
 * ```
 */
export function join(a: Value, b: Value): Value {
  if (a instanceof Tpl || b instanceof Tpl) return new Tpl(text(a) + text(b));
  if (typeof a === "object" && a !== null || typeof b === "object" && b !== null) {
    throw new Unsaid();
  }
  return String(a) + String(b);
}

/**
 * A value as URL text: Postman text for a variable's, JavaScript's `String` for the rest.
 *
 * @example
 * ```ts
 * import { text, Tpl } from "./row_values.ts";
 * if (text(new Tpl("{{a}}")) !== "{{a}}" || text(3) !== "3") throw new Error();
 * ```
 */
export function text(v: Value): string {
  if (v instanceof Tpl) return v.text;
  if (typeof v === "object" && v !== null) throw new Unsaid();
  return String(v);
}

type Prim = string | number | boolean | null | undefined;
const COMPARE: Record<string, (x: Prim, y: Prim) => boolean> = {
  "===": (x, y) => x === y,
  "!==": (x, y) => x !== y,
  "==": (x, y) => x == y,
  "!=": (x, y) => x != y,
  "<": (x, y) => (x as number) < (y as number),
  ">": (x, y) => (x as number) > (y as number),
  "<=": (x, y) => (x as number) <= (y as number),
  ">=": (x, y) => (x as number) >= (y as number),
};

/**
 * `a op b` for `+` and the comparisons, as JavaScript works them out on text, numbers and the rest.
 *
 * @example
 * ```ts
 * import { binary } from "./row_values.ts";
 * if (binary("+", 1, 2) !== 3 || binary("!==", "", "") !== false || binary("==", undefined, null) !== true) throw new Error();
 * ```
 */
export function binary(op: string, a: Value, b: Value): Value {
  if (op === "+") return typeof a === "number" && typeof b === "number" ? a + b : join(a, b);
  const prim = (v: Value) => v === null || typeof v !== "object";
  if (!prim(a) || !prim(b) || !Object.hasOwn(COMPARE, op)) throw new Unsaid();
  return COMPARE[op](a as Prim, b as Prim);
}

/**
 * The `k=v` texts `query.add` or `addQueryParams` is given: text, `{ key, value }`, or a list.
 *
 * @example
 * ```ts
 * import { queryPairs } from "./row_values.ts";
 * if (queryPairs([{ key: "a", value: "1" }, "b=2"]).join("&") !== "a=1&b=2") throw new Error();
 * ```
 */
export function queryPairs(a: Value): string[] {
  if (Array.isArray(a)) return a.flatMap(queryPairs);
  if (typeof a === "string") return a === "" ? [] : [a];
  if (!isRecord(a) || typeof a.key !== "string") throw new Unsaid();
  return [a.value === undefined || a.value === null ? a.key : `${a.key}=${text(a.value)}`];
}

/**
 * A text's or number's method the script calls: `toString`, `trim`, `includes`.
 *
 * @example
 * ```ts
 * import { scalarMethod } from "./row_values.ts";
 * if (scalarMethod(" a ", "trim", []) !== "a" || scalarMethod(7, "toString", []) !== "7") throw new Error();
 * ```
 */
export function scalarMethod(self: string | number, name: string | number, args: Value[]): Value {
  if (name === "toString") return String(self);
  if (typeof self !== "string") throw new Unsaid();
  if (name === "trim") return self.trim();
  if (name === "includes") return self.includes(String(args[0]));
  throw new Unsaid();
}

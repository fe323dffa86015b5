/**
 * JSON values as checks compare and show them: deep equality, JSON type
 * names, and the shortened, masked text a message quotes.
 *
 * @module
 */
import { jsonHead } from "../_util/json_head.ts";
import { type Masking, PLAIN } from "../model/masking.ts";

/**
 * Values in messages are shortened by a {@linkcode Masking}: a run passes its
 * redactor, which masks a value before cutting it, since a secret cut short
 * is no longer recognisable. Without one, nothing is masked, only shortened.
 */
export { PLAIN };

/**
 * Deep equality over JSON values: same type, same members, order of object
 * keys ignored, order of list items kept.
 *
 * @example
 * ```ts
 * import { deepEqual } from "./json_value.ts";
 * if (!deepEqual({ a: [1, { b: null }] }, { a: [1, { b: null }] })) throw new Error();
 * if (deepEqual(5, "5")) throw new Error();
 * ```
 */
export function deepEqual(a: unknown, b: unknown): boolean {
  // A work list, not recursion: a response nested 100,000 deep is compared like any other.
  const pairs: [unknown, unknown][] = [[a, b]];
  for (let pair = pairs.pop(); pair !== undefined; pair = pairs.pop()) {
    const [x, y] = pair;
    if (x === y) continue;
    if (typeof x !== "object" || typeof y !== "object" || x === null || y === null) return false;
    if (Array.isArray(x) !== Array.isArray(y)) return false;
    if (Array.isArray(x)) {
      const ys = y as unknown[];
      if (x.length !== ys.length) return false;
      for (let i = 0; i < x.length; i++) pairs.push([x[i], ys[i]]);
      continue;
    }
    const keys = Object.keys(x);
    const yo = y as Record<string, unknown>;
    if (keys.length !== Object.keys(yo).length) return false;
    for (const k of keys) {
      if (!Object.hasOwn(yo, k)) return false;
      pairs.push([(x as Record<string, unknown>)[k], yo[k]]);
    }
  }
  return true;
}

const CLOSE_LIST = Symbol("]");
const CLOSE_MAP = Symbol("}");

/**
 * A text that two JSON values share exactly when {@linkcode deepEqual} holds
 * for them (object keys sorted, every value followed by a comma so `[1,2]`
 * and `[12]` differ), built without recursion. Membership tests over lists
 * then cost their size, not the product of two lists' lengths: `containsAll`
 * of 100,000 captured items over a list of 100,000 took 55 s.
 *
 * @example
 * ```ts
 * import { canonicalKey } from "./json_value.ts";
 * if (canonicalKey({ b: [1, 2], a: null }) !== canonicalKey({ a: null, b: [1, 2] })) throw new Error();
 * if (canonicalKey([1, 2]) === canonicalKey([12]) || canonicalKey(5) === canonicalKey("5")) throw new Error();
 * ```
 */
export function canonicalKey(value: unknown): string {
  const out: string[] = [];
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (v === CLOSE_LIST) out.push("],");
    else if (v === CLOSE_MAP) out.push("},");
    else if (v instanceof MemberKey) out.push(JSON.stringify(v.key), ":");
    else if (Array.isArray(v)) {
      out.push("[");
      stack.push(CLOSE_LIST);
      for (let i = v.length - 1; i >= 0; i--) stack.push(v[i]);
    } else if (v !== null && typeof v === "object") {
      out.push("{");
      stack.push(CLOSE_MAP);
      const keys = Object.keys(v).sort();
      for (let i = keys.length - 1; i >= 0; i--) {
        stack.push((v as Record<string, unknown>)[keys[i]], new MemberKey(keys[i]));
      }
    } else if (typeof v === "string") out.push(JSON.stringify(v), ",");
    else out.push(typeof v === "number" ? `n${v}` : String(v), ",");
  }
  return out.join("");
}

/** An object's key, as the work list of {@linkcode canonicalKey} holds it. */
class MemberKey {
  constructor(readonly key: string) {}
}

/**
 * Whether a JSON-like value nests more than `max` lists and maps deep, found
 * without recursion (so a 100,000-deep value is answered, not a stack overflow).
 *
 * @example
 * ```ts
 * import { nestsDeeperThan } from "./json_value.ts";
 * const deep = JSON.parse("[".repeat(300) + "]".repeat(300));
 * if (!nestsDeeperThan(deep, 256) || nestsDeeperThan({ a: [1] }, 2)) throw new Error();
 * ```
 */
export function nestsDeeperThan(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 1]];
  for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
    const [node, depth] = top;
    if (node === null || typeof node !== "object") continue;
    if (depth > max) return true;
    for (const child of Object.values(node)) stack.push([child, depth + 1]);
  }
  return false;
}

/**
 * The JSON type of a value: string, number, boolean, null, array or object.
 *
 * @example
 * ```ts
 * import { jsonType } from "./json_value.ts";
 * if (jsonType([]) !== "array" || jsonType(null) !== "null") throw new Error();
 * ```
 */
export function jsonType(value: unknown): string {
  if (value === null || value === undefined) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}

/**
 * A value as it appears in a message: JSON, shortened past `max` characters.
 *
 * @example
 * ```ts
 * import { show } from "./json_value.ts";
 * if (show("a") !== '"a"' || show([1, 2]) !== "[1,2]") throw new Error();
 * ```
 */
export function show(value: unknown, max = 80, display: Masking = PLAIN): string {
  // A little more than is shown, so a secret across the cut is still recognised.
  const text = value === undefined ? "undefined" : jsonHead(value, max + HEAD_SLACK).text;
  return display.shorten(text, max);
}

/** How much JSON beyond a cut is written and masked, so a secret across the cut is seen whole. */
export const HEAD_SLACK = 16 * 1024;

/** A value with its JSON type, for messages: `string "a"`. */
export function typed(value: unknown, display: Masking = PLAIN): string {
  return `${jsonType(value)} ${show(value, 80, display)}`;
}

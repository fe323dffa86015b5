/**
 * JSON values as checks compare and show them: deep equality, JSON type
 * names, and the shortened, masked text a message quotes.
 *
 * @module
 */
import { jsonHead } from "./json_head.ts";
import { type Masking, Redactor } from "./secrets/redactor.ts";

/**
 * Values in messages are shortened by a {@linkcode Masking}: a run passes its
 * redactor, which masks a value before cutting it, since a secret cut short
 * is no longer recognisable. Without one, only JWT-shaped values are masked.
 */
export const PLAIN: Masking = new Redactor();

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
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bs = b as unknown[];
    return a.length === bs.length && a.every((x, i) => deepEqual(x, bs[i]));
  }
  const ak = Object.keys(a);
  const bo = b as Record<string, unknown>;
  return ak.length === Object.keys(bo).length &&
    ak.every((k) => Object.hasOwn(bo, k) && deepEqual((a as Record<string, unknown>)[k], bo[k]));
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

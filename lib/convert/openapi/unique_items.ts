/**
 * Items that differ, for an array whose schema says `uniqueItems` (Joi's
 * `.unique()`, as `hapi-swagger` writes it) and wants more than one: the
 * one value made for its items, repeated, was refused as a duplicate.
 *
 * @module
 */
import type { Node } from "../../check/openapi_operations.ts";

/** Digits that keep a date, a number or a uuid what it is when they end it. */
const ENDINGS = "23456789";

/** The `i`th variant of `item`: a number moved by whole steps, a text's last digit changed or a digit added. */
function variant(item: unknown, i: number, items: Node): unknown {
  if (i === 0) return item;
  if (typeof item === "number") {
    const step = typeof items.multipleOf === "number" && items.multipleOf > 0
      ? items.multipleOf
      : 1;
    return Number((item + i * step).toPrecision(12));
  }
  if (typeof item !== "string") return item;
  const last = item.at(-1) ?? "";
  const ending = ENDINGS.split("").filter((d) => d !== last)[(i - 1) % (ENDINGS.length - 1)];
  return /\d/.test(last) ? item.slice(0, -1) + ending : `${item}${i}`;
}

/**
 * `count` items from `item`: the same value each time unless the array's
 * schema `s` says `uniqueItems`, then each one different.
 *
 * @example
 * ```ts
 * import { arrayOf } from "./unique_items.ts";
 * if (JSON.stringify(arrayOf({ uniqueItems: true }, {}, 3, 1)) !== "[1,2,3]") throw new Error();
 * if (JSON.stringify(arrayOf({ uniqueItems: true }, {}, 2, "2024-01-01")) !== '["2024-01-01","2024-01-02"]') throw new Error();
 * if (JSON.stringify(arrayOf({}, {}, 2, "a")) !== '["a","a"]') throw new Error();
 * ```
 */
export function arrayOf(s: Node, items: Node, count: number, item: unknown): unknown[] {
  const unique = s.uniqueItems === true;
  return Array.from({ length: count }, (_, i) => unique ? variant(item, i, items) : item);
}

/**
 * A length bounded from above on a part that is not text (`expect(json.results.length)
 * .to.be.at.most(20)`): in Newman the test fails unless the part is a list or text (`.length`
 * of a missing member is a TypeError; of an object or a number, `undefined`, no number to
 * compare). Checking only that no element past the bound is there holds on a missing part too,
 * so the list's branch also checks that the part is a list.
 *
 * @module
 */
import type { Cond } from "./script/sym.ts";

/** The comparisons bounding a length from above (sym.ts's ops). */
const FROM_ABOVE = new Set(["lengthLt", "lengthLte"]);

/**
 * `list`, the checks of a length on a list, with a check that the part is a list first when
 * `c` bounds it from above; bounds from below already need an element, so a list.
 *
 * @example
 * ```ts
 * import { listBounded } from "./bounded_list.ts";
 * const c = { path: "$.json.results", op: "lengthLte", value: 20 };
 * const list = listBounded(c, [{ path: "$.json.results[20]", op: "exists", value: false }]);
 * if (list[0].op !== "type" || list[0].value !== "array" || list.length !== 2) throw new Error();
 * ```
 */
export function listBounded(c: Cond, list: Cond[]): Cond[] {
  if (!FROM_ABOVE.has(c.op)) return list;
  return [{ path: c.path, op: "type", value: "array" }, ...list];
}

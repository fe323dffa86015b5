/**
 * A property every list has in Newman's sandbox: chai's `have.property(name)` finds a name on
 * the prototype, and the sandbox's `Array.prototype` holds the standard methods and Sugar's
 * (`count`, `first`, `last`, `sum`, …). So `pm.expect(list).to.have.property('count')` passes
 * on any list, and looks for the member only on an object. checks_yaml.ts writes the check as a
 * group: a list there, else the member there.
 *
 * @module
 */
import type { Cond } from "./sym.ts";

/** The op of a property of a list's prototype; its cond's `value` is the part it is read on. */
export const ARRAY_MEMBER = "arrayMember";

/**
 * `Array.prototype`'s own names in Newman 6.2.1's sandbox (Node's, then Sugar's), read there
 * with `Object.getOwnPropertyNames(Array.prototype)`.
 */
const SANDBOX_ARRAY_NAMES = new Set([
  ..."length constructor at concat copyWithin fill find findIndex findLast findLastIndex"
    .split(" "),
  ..."lastIndexOf pop push reverse shift unshift slice sort splice includes indexOf join keys"
    .split(" "),
  ..."entries values forEach filter flat flatMap map every some reduce reduceRight"
    .split(" "),
  ..."toLocaleString toString toReversed toSorted toSpliced with".split(" "),
  ..."findAll count removeAt include exclude clone unique flatten union intersect subtract"
    .split(" "),
  ..."first last from to min max least most sum average inGroups inGroupsOf isEmpty sortBy"
    .split(" "),
  ..."randomize zip sample each add remove compact groupBy none all any insert".split(" "),
]);

/**
 * The check of `have.property(name, …values)` on `parent`, `at` the member: equal to the value
 * when one is given; else there, or, not negated and a name the sandbox gives every list, a
 * check that also holds on a list (negated, the member's absence, as before).
 *
 * @example
 * ```ts
 * import { ARRAY_MEMBER, propertyCond } from "./array_member.ts";
 * const c = propertyCond("$.json", "$.json.count", ["count"], false);
 * if (c.op !== ARRAY_MEMBER || c.value !== "$.json") throw new Error();
 * if (propertyCond("$.json", "$.json.total", ["total"], false).op !== "exists") throw new Error();
 * if (propertyCond("$.json", "$.json.count", ["count", 2], false).op !== "equals") throw new Error();
 * ```
 */
export function propertyCond(
  parent: string,
  at: string,
  values: unknown[],
  negated: boolean,
): Cond {
  if (values.length > 1) return { path: at, op: "equals", value: values[1] };
  if (!negated && SANDBOX_ARRAY_NAMES.has(values[0] as string)) {
    return { path: at, op: ARRAY_MEMBER, value: parent };
  }
  return { path: at, op: "exists", value: true };
}

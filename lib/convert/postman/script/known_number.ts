/**
 * `Number(x)`, `parseFloat(x)` and `parseInt(x, radix)` of a value known when converting: a
 * variable a script set to a value written in it (`pm.environment.set("price", 999)`), a literal.
 * JavaScript's own functions give the same number now as Newman's sandbox does when it runs, so
 * the result is that number, and a check compares with it (`eql(Number(pm.environment.get(…)))`
 * is `equals: 999`). A result that is no finite number (`Number("abc")`) is left unsaid: the
 * comparison stays a comment, as before.
 *
 * @module
 */
import type { Sym } from "./sym.ts";

/** The functions folded, each as JavaScript computes it on a primitive. */
const FOLD: Record<string, (value: string | number | boolean, radix?: number) => number> = {
  Number: (v) => Number(v),
  parseFloat: (v) => parseFloat(String(v)),
  parseInt: (v, radix) => parseInt(String(v), radix),
};

/**
 * The number `callee(first, radix)` gives when `first` (and `radix`, if any) are known now, with
 * the variables `first` was worked out from; `undefined` for a value known only when the flow
 * runs, an object, `undefined`, or a result that is no finite number.
 *
 * @example
 * ```ts
 * import { knownNumber } from "./known_number.ts";
 * const n = knownNumber("Number", { k: "lit", value: "999", from: ["price"] });
 * if (n?.k !== "lit" || n.value !== 999 || n.from?.[0] !== "price") throw new Error(JSON.stringify(n));
 * const hex = knownNumber("parseInt", { k: "lit", value: "ff" }, { k: "lit", value: 16 });
 * if (hex?.k !== "lit" || hex.value !== 255) throw new Error(JSON.stringify(hex));
 * if (knownNumber("Number", { k: "lit", value: "abc" }) !== undefined) throw new Error();
 * if (knownNumber("Number", { k: "var", name: "id", expr: "${vars.id}" }) !== undefined) throw new Error();
 * ```
 */
export function knownNumber(callee: string, first?: Sym, radix?: Sym): Sym | undefined {
  const fold = Object.hasOwn(FOLD, callee) ? FOLD[callee] : undefined;
  if (!fold || first?.k !== "lit" || !primitive(first.value)) return undefined;
  if (radix !== undefined && (radix.k !== "lit" || !primitive(radix.value))) return undefined;
  const value = fold(first.value, radix === undefined ? undefined : Number(radix.value));
  if (!Number.isFinite(value)) return undefined;
  return first.from ? { k: "lit", value, from: first.from } : { k: "lit", value };
}

/** A string, number or boolean: what the functions read the same way whatever made it. */
function primitive(v: unknown): v is string | number | boolean {
  return typeof v === "string" || typeof v === "number" || typeof v === "boolean";
}

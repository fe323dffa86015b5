/**
 * A data file's column read in a script (`data.Input1`, `pm.iterationData.get("Input1")`): the
 * rows are known when converting, so a column every row gives is known to be defined, and one every
 * row gives as a number is one. What a legacy script asks of it before comparing
 * (`defined(data.x) ? data.x : environment.x`, `Number(data.x)`) is then known now.
 *
 * @module
 */
import type { Sym } from "./sym.ts";

/** What every row of the data file gives a column: a number, or at least a value. */
export type RowKind = "number" | "value";

/**
 * What every row gives each column of `rows` (keyed by `key(column)`): `number`, `value`, or none.
 *
 * @example
 * ```ts
 * import { rowKinds } from "./data_row.ts";
 * const kinds = rowKinds(["a", "b", "c"], [{ a: 1, b: "x", c: null }, { a: 2, b: 3, c: 1 }], (c) => c);
 * if (kinds.get("a") !== "number" || kinds.get("b") !== "value" || kinds.has("c")) throw new Error();
 * ```
 */
export function rowKinds(
  columns: readonly string[],
  rows: readonly Record<string, unknown>[],
  key: (column: string) => string,
): Map<string, RowKind> {
  const kinds = new Map<string, RowKind>();
  for (const column of columns) {
    const values = rows.map((r) => r[key(column)]);
    if (values.length === 0 || values.some((v) => v === null || v === undefined)) continue;
    const numbers = values.every((v) => typeof v === "number" && Number.isFinite(v));
    kinds.set(column, numbers ? "number" : "value");
  }
  return kinds;
}

const EQUALITY = new Map([["===", false], ["==", false], ["!==", true], ["!=", true]]);

/**
 * `x === null`, `x !== undefined` (either side) of a column every row gives: known now.
 *
 * @example
 * ```ts
 * import { rowComparison } from "./data_row.ts";
 * const x = { k: "var" as const, name: "x", expr: "${vars.x}", row: "value" as const };
 * const s = rowComparison("!==", x, { k: "lit", value: undefined });
 * if (s?.k !== "lit" || s.value !== true) throw new Error();
 * ```
 */
export function rowComparison(op: string, a: Sym, b: Sym): Sym | undefined {
  const there = EQUALITY.get(op);
  if (there === undefined) return undefined;
  const [column, other] = a.k === "var" ? [a, b] : [b, a];
  const absent = other.k === "lit" && (other.value === null || other.value === undefined);
  return column.k === "var" && column.row && absent ? { k: "lit", value: there } : undefined;
}

/**
 * `Number(x)` of a column every row gives as a number: `x` itself.
 *
 * @example
 * ```ts
 * import { rowNumber } from "./data_row.ts";
 * const x = { k: "var" as const, name: "x", expr: "${vars.x}", row: "number" as const };
 * if (rowNumber("Number", x) !== x || rowNumber("Number", { ...x, row: "value" }) !== undefined) throw new Error();
 * ```
 */
export function rowNumber(callee: string, first: Sym | undefined): Sym | undefined {
  return callee === "Number" && first?.k === "var" && first.row === "number" ? first : undefined;
}

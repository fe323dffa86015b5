/**
 * A data file's column read in a script (`data.Input1`, `pm.iterationData.get("Input1")`): the
 * rows are known when converting, so a column every row gives is known to be defined, and one every
 * row gives as a number is one. What a legacy script asks of it before comparing
 * (`defined(data.x) ? data.x : environment.x`, `Number(data.x)`) is then known now.
 *
 * @module
 */
import type { Sym } from "./sym.ts";

/**
 * What every row of the data file gives a column (a whole number, a number, a boolean, or at
 * least a value), or what a value a script makes always is (`${RANDOM.DIGITS_3}` a whole number).
 */
export type RowKind = "integer" | "number" | "boolean" | "value";

/**
 * What every row gives each column of `rows` (keyed by `key(column)`): `number`, `value`, or none.
 *
 * @example
 * ```ts
 * import { rowKinds } from "./data_row.ts";
 * const kinds = rowKinds(["a", "b", "c"], [{ a: 1, b: "x", c: null }, { a: 2.5, b: 3, c: 1 }], (c) => c);
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
    kinds.set(column, kindOf(values));
  }
  return kinds;
}

/** The kind every one of `values` is. */
function kindOf(values: unknown[]): RowKind {
  if (values.every((v) => Number.isInteger(v))) return "integer";
  if (values.every((v) => typeof v === "number" && Number.isFinite(v))) return "number";
  return values.every((v) => typeof v === "boolean") ? "boolean" : "value";
}

/** Flow expressions a script's made value is written as, and what each always gives. */
const MADE: [RegExp, RowKind][] = [
  [/^\$\{RANDOM\.DIGITS_\d+\}$/, "integer"],
  [/^\$\{NOW\.UNIX(?:_MS)?(?:[+-]\d+[smhdw])?\}$/, "integer"],
  [/^\$\{RANDOM\.BOOL\}$/, "boolean"],
];

/**
 * What a flow var a script made always holds, by its expression (`${RANDOM.DIGITS_3}`, the
 * flow's `{{$randomInt}}`: a whole number); undefined when it is text or not known.
 *
 * @example
 * ```ts
 * import { madeKind } from "./data_row.ts";
 * if (madeKind("${RANDOM.DIGITS_3}") !== "integer" || madeKind("${RANDOM.BOOL}") !== "boolean") throw new Error();
 * if (madeKind("n-${RANDOM.DIGITS_3}") !== undefined) throw new Error();
 * ```
 */
export function madeKind(text: string): RowKind | undefined {
  return MADE.find(([re]) => re.test(text))?.[1];
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
 * `Number(x)`, `parseFloat(x)` of a column every row gives as a number, or of a value a script
 * made as one, and `parseInt(x)` (radix 10) of a whole number: `x` itself, a number already.
 *
 * @example
 * ```ts
 * import { rowNumber } from "./data_row.ts";
 * const x = { k: "var" as const, name: "x", expr: "${vars.x}", row: "number" as const };
 * if (rowNumber("Number", x) !== x || rowNumber("Number", { ...x, row: "value" }) !== undefined) throw new Error();
 * if (rowNumber("parseInt", x) !== undefined || rowNumber("parseInt", { ...x, row: "integer" }) === undefined) throw new Error();
 * ```
 */
export function rowNumber(
  callee: string,
  first: Sym | undefined,
  radix?: Sym | undefined,
): Sym | undefined {
  if (first?.k !== "var" || !first.row) return undefined;
  const number = first.row === "integer" || first.row === "number";
  if (callee === "Number" || callee === "parseFloat") return number ? first : undefined;
  const decimal = radix === undefined || (radix.k === "lit" && radix.value === 10);
  return callee === "parseInt" && first.row === "integer" && decimal ? first : undefined;
}

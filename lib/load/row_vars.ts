/**
 * Inline data rows and the flow's own vars: in what order a row's run
 * evaluates them. A row's values are vars of its run, and a flow var may
 * read them (`who: "${vars.name}-x"`), so a row cannot read such a var; but
 * the vars that read no column of the rows (`base: http://…`) are evaluated
 * first, so a row may read them (`url: "${vars.base}/users"`).
 *
 * @module
 */
import type { Expr, Ref } from "../model/template.ts";
import type { ValueTemplate } from "../model/template.ts";
import type { VarDef } from "../model/flow.ts";

/** The row columns and the flow's vars, as checked and as run. */
export interface RowVars {
  /** The columns, then the flow's vars: the order references are checked in. */
  checked: VarDef[];
  /** The order a row's run evaluates them: the vars that read no column, the columns, the rest. */
  run: VarDef[];
  /** How many of `checked` are columns. */
  columns: number;
  /** Each var that reads a column (directly or through another var), with the column. */
  dependent: Map<string, string>;
}

/** The names a value's `${vars.x}` and `${x}` read. */
function varNamesOf(value: ValueTemplate): string[] {
  const names = (parts: readonly (string | Expr)[]) =>
    parts.flatMap((p) => typeof p === "string" ? [] : nameOf(p.ref));
  switch (value.kind) {
    case "const":
      return [];
    case "template":
      return names(value.template.parts);
    case "list":
      return value.items.flatMap(varNamesOf);
    case "map":
      return value.entries.flatMap((
        [, v, key],
      ) => [...(key ? names(key.parts) : []), ...varNamesOf(v)]);
  }
}

function nameOf(ref: Ref): string[] {
  return ref.kind === "var" || ref.kind === "name" ? [ref.name] : [];
}

/**
 * Orders inline rows' `columns` and the flow's `vars` (those no column
 * overrides): a var reads a column when one of its references names a
 * column or such a var.
 *
 * @example
 * ```ts
 * import { rowVars } from "./row_vars.ts";
 * import { compileValue } from "../expr/template.ts";
 * const v = (name: string, text: string) => ({ name, value: compileValue(text) });
 * const rows = rowVars([v("name", "a")], [v("base", "http://x.test"), v("who", "${vars.name}-x")]);
 * if (rows.run.map((x) => x.name).join() !== "base,name,who") throw new Error();
 * if (rows.dependent.get("who") !== "name" || rows.columns !== 1) throw new Error();
 * ```
 */
export function rowVars(columns: VarDef[], vars: VarDef[]): RowVars {
  const dependent = new Map<string, string>();
  const columnNames = new Set(columns.map((c) => c.name));
  for (const v of vars) {
    for (const name of varNamesOf(v.value)) {
      const column = columnNames.has(name) ? name : dependent.get(name);
      if (column !== undefined) {
        dependent.set(v.name, column);
        break;
      }
    }
  }
  const free = vars.filter((v) => !dependent.has(v.name));
  const after = vars.filter((v) => dependent.has(v.name));
  return {
    checked: [...columns, ...vars],
    run: columns.length === 0 ? vars : [...free, ...columns, ...after],
    columns: columns.length,
    dependent,
  };
}

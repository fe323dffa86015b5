/**
 * The `${…}` in the values of a data file's rows, checked like a var's before
 * anything is sent: a row's value is the value of the var of its column, so it
 * may read the vars above that one, run parameters, the environment, setup
 * outputs and the run's generated values, but no step.
 *
 * @module
 */
import type { Problem } from "../model/errors.ts";
import { SyntaxAtError } from "../model/errors.ts";
import type { DataRow, Flow } from "../model/flow.ts";
import { parseTemplate, type Template } from "../expr/template.ts";
import { checkRef, type RefScope } from "./ref_checks.ts";
import type { LoadOptions } from "./load_options.ts";

/** Where the problem is reported: the `file:` line of the flow's `data`. */
type At = Pick<Problem, "file" | "line" | "column">;

/**
 * The first problem of an expression in a data file's rows, or undefined.
 *
 * @example
 * ```ts
 * import { rowExpressionProblem } from "./row_refs.ts";
 * import type { Flow } from "../model/flow.ts";
 * const flow = { vars: [{ name: "user" }] } as unknown as Flow;
 * const rows = [{ name: "row 1", values: { user: "${vars.nope}" } }];
 * const at = { file: "f.yaml", line: 3, column: 7 };
 * const problem = rowExpressionProblem(flow, rows, {}, at, "users.csv");
 * if (problem?.code !== "unknown-var" || !problem.message.startsWith("Row 1")) throw new Error();
 * ```
 */
export function rowExpressionProblem(
  flow: Flow,
  rows: readonly DataRow[],
  options: LoadOptions,
  at: At,
  path: string,
): Problem | undefined {
  const names = flow.vars.map((v) => v.name);
  for (const [i, row] of rows.entries()) {
    for (const [column, value] of Object.entries(row.values)) {
      for (const text of templatedStrings(value)) {
        const where = `Row ${i + 1} of the data file "${path}", column "${column}"`;
        const problem = valueProblem(text, names.slice(0, names.indexOf(column)), names, options);
        if (problem) return { ...at, ...problem, message: `${where}: ${problem.message}` };
      }
    }
  }
  return undefined;
}

/** The strings holding `${` in a row value, in a map's or list's values too (its keys are data). */
function* templatedStrings(value: unknown): Generator<string> {
  const stack = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === "string" && v.includes("${")) yield v;
    else if (v !== null && typeof v === "object") stack.push(...Object.values(v).reverse());
  }
}

/** The first problem of one value: its syntax, then its references. */
function valueProblem(
  value: string,
  available: string[],
  varNames: string[],
  options: LoadOptions,
): Pick<Problem, "code" | "message" | "hint"> | undefined {
  let template: Template;
  try {
    template = parseTemplate(value);
  } catch (error) {
    if (!(error instanceof SyntaxAtError)) throw error;
    return { code: error.code, message: error.message, hint: error.hint };
  }
  let found: Pick<Problem, "code" | "message" | "hint"> | undefined;
  const params = options.params ?? new Map<string, string>();
  const scope: RefScope = {
    setup: options.setup,
    known: (name) => available.includes(name) || params.has(name),
    varNames,
    available,
    env: options.env ?? (() => undefined),
    checkEnv: options.checkEnv ?? true,
    rank: () => 0,
    byName: new Map(),
    report: (code, message, hint) => void (found ??= { code, message, hint }),
  };
  for (const part of template.parts) if (typeof part !== "string") checkRef(part, scope);
  return found;
}

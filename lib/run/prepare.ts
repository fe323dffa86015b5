/**
 * Flows made ready to run: a data-driven flow becomes one flow per row, what
 * its checks need is compiled (schemas, XPath, regular expressions), a flow
 * held as its bytes is parsed in its turn, and data columns named like
 * secrets are found before anything runs.
 *
 * @module
 */
import { prepareRegex } from "../_util/regex.ts";
import { prepareXPath } from "../check/xpath.ts";
import { prepareSchemas } from "../load/schema_compile.ts";
import { type DeferredFlow, type Flow, isDeferred } from "../model/flow.ts";
import { secretRowValues } from "../secrets/row_values.ts";
import { compileValue, type ValueTemplate } from "../expr/template.ts";
import { type Masking, PLAIN } from "../model/masking.ts";

/**
 * A data-driven flow becomes one flow per row, named by the row, its vars
 * taking the row's values; the rows then run like any flows, in parallel
 * under `jobs`. A row's name is its `name` column's value: masked by
 * `display` as a value (a short secret too, which the reports keep in a
 * name), and then numbered so that two masked rows never share a name.
 *
 * @example
 * ```ts
 * import { expandRows } from "./prepare.ts";
 * import { Redactor } from "../secrets/mod.ts";
 * const flow = { name: "f", steps: [], vars: [{ name: "id", value: { kind: "const", value: 0 } }], rows: [{ name: "one", values: { id: 1 } }] };
 * // deno-lint-ignore no-explicit-any
 * const [row] = expandRows([flow as any]) as any[];
 * if (row.name !== "f [one]" || row.vars[0].value.value !== 1 || row.rows !== undefined) throw new Error();
 * const r = new Redactor();
 * r.add("admin");
 * const named = { ...flow, rows: [{ name: "admin", values: { id: 1 } }, { name: "x", values: { id: 2 } }] };
 * // deno-lint-ignore no-explicit-any
 * const rows = expandRows([named as any], r).map((f: any) => f.name);
 * if (rows.join() !== "f [*** (row 1)],f [x]") throw new Error(rows.join());
 * ```
 */
export function expandRows(
  flows: readonly (Flow | DeferredFlow)[],
  display: Pick<Masking, "redact"> = PLAIN,
): (Flow | DeferredFlow)[] {
  return flows.flatMap((flow) =>
    !isDeferred(flow) && flow.rows
      ? flow.rows.map((row, i) => ({
        ...flow,
        name: `${flow.name} [${rowLabel(row.name, i, display)}]`,
        rows: undefined,
        dataFile: undefined,
        vars: flow.vars.map((v) =>
          Object.hasOwn(row.values, v.name)
            ? { name: v.name, value: rowValue(row.values[v.name]) }
            : v
        ),
      }))
      : [flow]
  );
}

/** A row's name, masked as the value it is; numbered when masked, so it stays unique. */
function rowLabel(name: string, index: number, display: Pick<Masking, "redact">): string {
  const masked = display.redact(name);
  return masked === name ? name : `${masked} (row ${index + 1})`;
}

/**
 * A row's value as a var's: its `${…}` expanded when the row runs (checked
 * when the flow loaded), in a map's or list's strings too; a whole
 * expression keeps the value's type.
 */
function rowValue(value: unknown): ValueTemplate {
  return typeof value === "string" && value.includes("${") ||
      value !== null && typeof value === "object"
    ? compileValue(value)
    : { kind: "const", value };
}

/**
 * The values of data columns named like secrets (or listed in `secrets`), of
 * every parsed flow the run has: setup and teardown flows' rows too.
 *
 * @example
 * ```ts
 * import { rowSecrets } from "./prepare.ts";
 * const flow = { steps: [], vars: [], rows: [{ name: "r", values: { password: "hunter2" } }] };
 * // deno-lint-ignore no-explicit-any
 * if (!rowSecrets([flow as any], []).includes("hunter2")) throw new Error();
 * ```
 */
export function rowSecrets(
  all: readonly (Flow | DeferredFlow)[],
  secrets: readonly string[],
): string[] {
  const values: string[] = [];
  secretRowValues(
    all.filter((f): f is Flow => !isDeferred(f)),
    new Set(secrets),
    (value) => void values.push(value),
  );
  return values;
}

/**
 * Prepares the parsed flows; a deferred one is prepared when it is parsed
 * again (see {@linkcode parsed}).
 *
 * @example
 * ```ts
 * import { prepare } from "./prepare.ts";
 * await prepare([]);
 * ```
 */
export async function prepare(
  all: readonly (Flow | DeferredFlow)[],
  signal?: AbortSignal,
): Promise<void> {
  await prepareParsed(all.filter((f): f is Flow => !isDeferred(f)), signal);
}

/**
 * A deferred flow parsed again, with what it needs loaded; a parsed flow as
 * it is.
 *
 * @example
 * ```ts
 * import { parsed } from "./prepare.ts";
 * // deno-lint-ignore no-explicit-any
 * const flow: any = { name: "f", steps: [] };
 * if (await parsed(flow) !== flow) throw new Error();
 * ```
 */
export async function parsed(flow: Flow | DeferredFlow): Promise<Flow> {
  if (!isDeferred(flow)) return flow;
  const loaded = await flow.load();
  await prepareParsed([loaded]);
  return loaded;
}

/** Compiles what the flows' checks need: schemas, XPath, regular expressions. */
async function prepareParsed(all: readonly Flow[], signal?: AbortSignal): Promise<void> {
  await prepareSchemas(all, signal);
  await prepareXPath(all);
  await prepareRegex(all);
}

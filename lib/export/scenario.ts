/**
 * One flow as Artillery scenarios: one scenario per flow, or per data row
 * of a data-driven flow (as `flowrun run` reports one result per row).
 * Its first item calls the processor's `flowrunStart`, which sets the
 * flow's vars for the virtual user; then the steps in order.
 *
 * @module
 */
import type { Flow, VarDef } from "../model/flow.ts";
import { jsValue } from "./js_value.ts";
import { secretEnvOf } from "./secret_env.ts";
import { type ExportScope, note, type Place, varName } from "./scope.ts";
import { type FlowItem, stepItems } from "./step.ts";

/** One scenario: its name and its flow items. */
export interface Scenario {
  name: string;
  items: FlowItem[];
  /** Where its templates were translated (its name space), for what reads it later. */
  place: Place;
}

/** The vars of one run of `flow`: a row's values win over the flow's own. */
function varsOf(flow: Flow, row: Record<string, unknown> | undefined): VarDef[] {
  const vars = flow.vars.filter((v) => !row || !(v.name in row));
  for (const [name, value] of Object.entries(row ?? {})) {
    vars.push({ name, value: { kind: "const", value } });
  }
  return vars;
}

/** The scenario of one run of `flow`, its variables in a name space of its own. */
function scenarioOf(
  flow: Flow,
  name: string,
  row: Record<string, unknown> | undefined,
  scope: ExportScope,
): Scenario {
  const vars = varsOf(flow, row);
  const place: Place = {
    scope,
    flow: name,
    flowIndex: scope.namespaces++,
    vars: new Set(vars.map((v) => v.name)),
    secretEnv: secretEnvOf(flow),
    included: new Map(),
  };
  for (const v of vars) {
    scope.perUser.set(varName(place.flowIndex, v.name), jsValue(v.value, place));
  }
  if (flow.serial) note(place, "serial: true is not expressed: virtual users run it side by side");
  const items: FlowItem[] = [{ comments: [], item: { function: "flowrunStart" } }];
  for (const step of flow.steps) items.push(...stepItems(step, flow, place));
  return { name, items, place };
}

/**
 * The scenarios of `flows`, in order; data rows each give one.
 *
 * @example
 * ```ts
 * import { scenariosOf } from "./scenario.ts";
 * import { newScope } from "./scope.ts";
 * const flow = { file: "f.yaml", name: "f", vars: [], steps: [],
 *   rows: [{ name: "a", values: { n: 1 } }, { name: "b", values: { n: 2 } }] };
 * const scenarios = scenariosOf([flow], newScope());
 * if (scenarios.map((s) => s.name).join() !== "f [a],f [b]") throw new Error();
 * ```
 */
export function scenariosOf(flows: readonly Flow[], scope: ExportScope): Scenario[] {
  const out: Scenario[] = [];
  for (const flow of flows) {
    const rows = flow.rows ?? [undefined];
    for (const row of rows) {
      const name = row ? `${flow.name} [${row.name}]` : flow.name;
      out.push(scenarioOf(flow, name, row?.values, scope));
    }
  }
  return out;
}

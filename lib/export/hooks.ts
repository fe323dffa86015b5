/**
 * Setup and teardown flows (`--setup`, `--teardown`) as Artillery's
 * `before:` and `after:` sections, which run once before the virtual users
 * start and once after they end (once per worker on a distributed run).
 * The setup flows' `outputs` are computed by the processor's
 * `flowrunOutputs` at the end of `before:`; Artillery hands the variables
 * `before:` made to every user, so `${setup.NAME}` reads `{{ setup_NAME }}`.
 *
 * @module
 */
import type { Flow } from "../model/flow.ts";
import type { FlowItem } from "./flow_item.ts";
import { jsValue } from "./js_value.ts";
import { type Scenario, scenariosOf } from "./scenario.ts";
import type { ExportScope } from "./scope.ts";

/**
 * The Artillery variable of a setup output.
 *
 * @example
 * ```ts
 * import { outputName } from "./hooks.ts";
 * if (outputName("api-token") !== "setup_api_token") throw new Error();
 * ```
 */
export function outputName(name: string): string {
  return `setup_${name.replace(/[^A-Za-z0-9_]/g, "_")}`;
}

/**
 * The `before:` items of the setup flows (their outputs computed last), or
 * undefined without one; call it before the other flows are translated, so
 * that their `${setup.NAME}` find the outputs.
 *
 * @example
 * ```ts
 * import { beforeItems } from "./hooks.ts";
 * import { newScope } from "./scope.ts";
 * const scope = newScope();
 * const setup = { file: "s.yaml", name: "s", vars: [], steps: [], outputs: [{ name: "t", value: { kind: "const" as const, value: "x" } }] };
 * const items = beforeItems([setup], scope);
 * if (items?.at(-1)?.item.function !== "flowrunOutputs" || scope.outputs.get("setup_t") !== '"x"') throw new Error();
 * ```
 */
export function beforeItems(setup: readonly Flow[], scope: ExportScope): FlowItem[] | undefined {
  if (setup.length === 0) return undefined;
  const scenarios: Scenario[] = scenariosOf(setup, scope);
  scenarios.forEach((scenario, i) => {
    for (const output of setup[i].outputs ?? []) {
      scope.outputs.set(outputName(output.name), jsValue(output.value, scenario.place));
    }
  });
  return [
    ...scenarios.flatMap((s) => s.items),
    { comments: [], item: { function: "flowrunOutputs" } },
  ];
}

/**
 * The `after:` items of the teardown flows, or undefined without one.
 *
 * @example
 * ```ts
 * import { afterItems } from "./hooks.ts";
 * import { newScope } from "./scope.ts";
 * if (afterItems([], newScope()) !== undefined) throw new Error();
 * ```
 */
export function afterItems(teardown: readonly Flow[], scope: ExportScope): FlowItem[] | undefined {
  return teardown.length === 0 ? undefined : scenariosOf(teardown, scope).flatMap((s) => s.items);
}

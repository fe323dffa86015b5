/**
 * A step's `if:` as Artillery's `ifTrue`, which may name a processor
 * function of the user's variables: the export writes one function per
 * step, `flowrunIfN(v)`, that evaluates the step's conditions with
 * flowrun's operators just before the request, so a step whose condition
 * does not hold is not sent, as in `flowrun run`. A polling step's or an
 * include step's condition is noted instead (Artillery's loop would go on
 * without the responses that end it; an include is several requests).
 *
 * @module
 */
import type { Step } from "../model/flow.ts";
import { jsValue } from "./js_value.ts";
import { note, type Place } from "./scope.ts";

/**
 * The name of the processor function that decides whether the step is
 * sent, or undefined when it has no condition (or one not expressed).
 *
 * @example
 * ```ts
 * import { conditionOf } from "./condition.ts";
 * import { newScope } from "./scope.ts";
 * const place = { scope: newScope(), flow: "f", flowIndex: 0, vars: new Set<string>() };
 * const when = [{ source: "x", value: { kind: "const" as const, value: 1 }, operator: "gt" as const,
 *   expected: { kind: "const" as const, value: 0 }, line: 1, column: 1 }];
 * if (conditionOf({ when } as never, place) !== "flowrunIf1") throw new Error();
 * if (!place.scope.conditions.get("flowrunIf1")?.includes('op: "gt"')) throw new Error();
 * ```
 */
export function conditionOf(step: Step, place: Place): string | undefined {
  if (!step.when?.length) return undefined;
  if (step.loop || step.include) {
    note(place, "its if: condition is not expressed: it is always sent");
    return undefined;
  }
  const parts = step.when.map((c) =>
    `{ value: ${jsValue(c.value, place)}, op: ${JSON.stringify(c.operator)}, expected: ${
      jsValue(c.expected, place)
    } }`
  );
  const name = `flowrunIf${place.scope.conditions.size + 1}`;
  place.scope.conditions.set(name, `[${parts.join(", ")}]`);
  return name;
}

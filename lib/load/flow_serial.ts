/**
 * A flow's `serial: true`: it must not run beside another flow (it changes
 * what other flows read: a shared account, a global setting, a rate limit).
 * The runner starts it after the others, alone (`run/schedule.ts`).
 *
 * @module
 */
import { isScalar } from "./nodes.ts";
import type { Loading } from "./context.ts";
import { describe } from "./describe.ts";
import type { Entry } from "./entry.ts";

/**
 * `serial: true` as the flow's field: none when absent or false; a problem
 * when it is not true or false.
 *
 * @example
 * ```ts
 * import { loadFlow } from "./load_flow.ts";
 * const text = (v: string) => `name: f\nserial: ${v}\nsteps:\n  - name: s\n    request: {url: "http://x.test"}\n`;
 * if (loadFlow(text("true"), "f.yaml").flow?.serial !== true) throw new Error();
 * if (loadFlow(text("false"), "f.yaml").flow?.serial !== undefined) throw new Error();
 * if (loadFlow(text("yes please"), "f.yaml").problems[0]?.code !== "wrong-type") throw new Error();
 * ```
 */
export function loadFlowSerial(ctx: Loading, entry: Entry | undefined): { serial?: true } {
  if (!entry) return {};
  const v = isScalar(entry.value) ? entry.value.value : undefined;
  if (typeof v === "boolean") return v ? { serial: true } : {};
  ctx.problem(
    "wrong-type",
    `Expected "serial" of the flow to be true or false, got ${describe(entry.value)}.`,
    entry.value ?? entry.keyNode,
    "Write serial: true for a flow that must not run beside another one.",
  );
  return {};
}

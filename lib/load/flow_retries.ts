/**
 * A flow's `retries`: how many times it is re-run when it does not pass
 * (issue 42), overriding `--retries`.
 *
 * @module
 */
import { MAX_FLOW_RETRIES } from "../model/limits.ts";
import type { Loading } from "./context.ts";
import type { Entry } from "./entry.ts";

/**
 * `retries: 2`, as the flow's fields: none when absent or not a whole
 * number from 0 to {@linkcode MAX_FLOW_RETRIES} (that is a problem at its
 * value). A flow re-run ten times that still fails is broken, not flaky.
 *
 * @example
 * ```ts
 * import { loadFlow } from "./load_flow.ts";
 * const text = (n: string) => `name: f\nretries: ${n}\nsteps:\n  - name: s\n    request: {url: "http://x.test"}\n`;
 * if (loadFlow(text("2"), "f.yaml").flow?.retries !== 2) throw new Error();
 * const bad = loadFlow(text("11"), "f.yaml").problems[0];
 * if (bad.code !== "out-of-range" || bad.line !== 2 || bad.column !== 10) throw new Error(JSON.stringify(bad));
 * ```
 */
export function loadFlowRetries(
  ctx: Loading,
  entry: Entry | undefined,
): { retries?: number } {
  if (!entry) return {};
  const retries = ctx.integer(entry, '"retries" of the flow', 0, MAX_FLOW_RETRIES);
  return retries === undefined ? {} : { retries };
}

/**
 * A flow a worker could not bring to its end: it threw there (a runner
 * bug), or the worker thread itself failed. On one thread such a throw
 * would end the run with no report; over threads it ends only that flow
 * (or the flows that worker held), as an error that says why, so every
 * other flow still runs and every report is still written.
 *
 * @module
 */
import type { Flow } from "../../model/flow.ts";
import type { FlowResult } from "../../model/result.ts";
import { notRun } from "../skipped.ts";

/**
 * The result of `flow`, lost on a worker for `why`: an error at its first
 * step, its other steps not run.
 *
 * @example
 * ```ts
 * import { lostResult } from "./lost.ts";
 * const flow = { file: "a.yaml", name: "a", vars: [], steps: [{ name: "s" }, { name: "t" }] };
 * // deno-lint-ignore no-explicit-any
 * const result = lostResult(flow as any, "Error: boom");
 * if (result.status !== "error" || result.steps[0].status !== "error") throw new Error();
 * if (!result.steps[0].message?.includes("boom") || result.steps[1].status !== "skipped") throw new Error();
 * ```
 */
export function lostResult(flow: Flow, why: string): FlowResult {
  const reason = `Not run: an earlier step of this flow was lost with its worker thread.`;
  const result = notRun(flow, reason, "skipped");
  const [first] = result.steps;
  if (first) {
    // No failure kind fits a runner's own failure: the message says it.
    delete first.failure_kind;
    first.status = "error";
    first.message = `The worker thread running this flow failed, so it did not run to its end ` +
      `(its requests may have been sent): ${firstLine(why)}. This is a flowrun bug: please ` +
      `report it.`;
  }
  return { ...result, status: "error" };
}

/** An error's first line (its message), without the stack below it. */
function firstLine(text: string): string {
  return text.split("\n")[0].replace(/\.$/, "");
}

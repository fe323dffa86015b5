/**
 * Whether the create of an item the client names made it. A step on an
 * item whose id a response gives is guarded by that capture (skipped when
 * its producer made nothing); one whose id the client names (`POST /todo/
 * {id, content}`, then `GET /todo/{id}` with the run's own id) had no such
 * guard, so where the create was refused (a 401 for a key the document never
 * declares, on a routing-controllers API measured by hand) its read, update
 * and delete were sent anyway and each failed 404: failures that say nothing
 * beside the create's own. The create's step now captures its status when
 * below 400 (a redirect after a create is a success too), and the item's
 * steps run only if that capture exists, saying why when skipped.
 *
 * @module
 */
import { ymap, type YNode } from "../yaml_out.ts";

/** The capture a create's step holds when it succeeded: its status, below 400. */
const MADE = ymap([["path", "$.status"], ["when", ymap([["path", "$.status"], ["lt", 400]])]]);

/**
 * The guard of a step on an item the create at step `step` names: none
 * when that create is no step of the flow.
 *
 * @example
 * ```ts
 * import { madeGuard } from "./made_guard.ts";
 * const guards = madeGuard("create_todo", (step, key) => `\${steps.${step}.capture.${key}}`);
 * if (guards.join() !== "${steps.create_todo.capture.made}") throw new Error();
 * if (madeGuard(undefined, () => "x").length !== 0) throw new Error();
 * ```
 */
export function madeGuard(
  step: string | undefined,
  capture: (step: string, key: string, source: YNode) => string,
): string[] {
  return step === undefined ? [] : [capture(step, "made", MADE)];
}

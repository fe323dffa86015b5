/**
 * What every check of one block is evaluated against: the response, the
 * scope its expected values are rendered in, the phase its results carry and
 * the masking of values in messages. Made once per block.
 *
 * @module
 */
import type { Scope } from "../expr/template.ts";
import type { ReceivedResponse } from "../http/response.ts";
import type { Masking } from "../model/masking.ts";
import type { AssertionResult } from "../model/result.ts";

/**
 * The inputs shared by the checks of one `assert` or `loop.until` block.
 *
 * @example
 * ```ts
 * import type { CheckContext } from "./context.ts";
 * import { ReceivedResponse } from "../http/response.ts";
 * import { PLAIN } from "../model/masking.ts";
 * const context: CheckContext = {
 *   response: new ReceivedResponse(200, {}, "{}"),
 *   scope: { env: () => undefined, vars: new Map(), steps: new Map(), runId: "r" },
 *   phase: "assert",
 *   display: PLAIN,
 * };
 * if (context.response.status !== 200) throw new Error();
 * ```
 */
export interface CheckContext {
  /** The response the checks read. */
  response: ReceivedResponse;
  /** Where expected values (which may hold expressions) are rendered. */
  scope: Scope;
  /** The block the results belong to: `assert`, or `until` for a polled step's conditions. */
  phase: AssertionResult["phase"];
  /** Masks values before they are shortened in messages (a run passes its redactor). */
  display: Masking;
}

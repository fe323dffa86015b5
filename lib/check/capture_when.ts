/**
 * A capture under a condition (`when`): the source is read only when the
 * response says so; otherwise the capture keeps `otherwise` (the value an
 * earlier step captured), as a script that sets a variable only on success
 * leaves the earlier value in place. `when` and `otherwise` may read the
 * captures of the same step written above (taken first, in the order written).
 *
 * @module
 */
import { ExpressionError, render, type Scope } from "../expr/template.ts";
import type { CaptureSource } from "../model/flow.ts";
import type { ReceivedResponse } from "../http/response.ts";
import type { Masking } from "../model/masking.ts";
import { type Captured, notFound } from "./capture.ts";
import { told } from "../model/told.ts";
import { conditionsHold } from "./groups.ts";

/**
 * What a capture's `when` decides: `"read"` (read its source), the value kept
 * otherwise, `"unset"` (no value, and no failure: nothing earlier either), or a
 * failure when the condition cannot be told.
 *
 * @example
 * ```ts
 * import { captureWhen } from "./capture_when.ts";
 * import { compileValue } from "../expr/template.ts";
 * import { ReceivedResponse } from "../http/response.ts";
 * import { PLAIN } from "../model/masking.ts";
 * const when = [{ kind: "value" as const, source: "a", value: compileValue("a"),
 *   operator: "equals" as const, expected: compileValue("b"), line: 1, column: 1 }];
 * const scope = { env: () => undefined, vars: new Map(), steps: new Map(), runId: "r" };
 * const r = new ReceivedResponse(400, {}, "{}");
 * const from = { kind: "cookie" as const, name: "x", when, otherwise: compileValue("old") };
 * const got = captureWhen(r, from, scope, PLAIN);
 * if (typeof got !== "object" || !got.found || got.value !== "old") throw new Error();
 * if (captureWhen(r, { kind: "cookie", name: "x" }, scope, PLAIN) !== "read") throw new Error();
 * ```
 */
export function captureWhen(
  response: ReceivedResponse,
  from: CaptureSource,
  scope: Scope,
  display: Masking,
): "read" | "unset" | Captured {
  if (!from.when) return "read";
  let holds: boolean | string;
  try {
    holds = conditionsHold(from.when, { response, scope, phase: "assert", display });
  } catch (error) {
    // A value it reads was never set (another operator than `exists` on an unset capture).
    if (!(error instanceof ExpressionError)) throw error;
    // The expression's message quotes what the flow had (a value of a capture): a value.
    return notFound(told`its "when" could not be told: ${error.message.replace(/\.$/, "")}`);
  }
  // Why the conditions could not be told (a path that could not be searched) may quote the body.
  if (typeof holds === "string") return notFound(told`its "when" ${holds}`);
  if (holds) return "read";
  if (!from.otherwise) return "unset";
  try {
    return { found: true, value: render(from.otherwise, scope) };
  } catch (error) {
    // The earlier value was never there (its step skipped or failed): nothing is kept.
    if (error instanceof ExpressionError) return "unset";
    throw error;
  }
}

/**
 * The scope a step's captures are taken in: `${steps.<step>.capture.k}` reads
 * what this step captured so far (`captured`), not what the scope held for it
 * before (a foreach's lists of every iteration, an earlier run's values).
 *
 * @example
 * ```ts
 * import { withOwnCaptures } from "./capture_when.ts";
 * const scope = { env: () => undefined, vars: new Map(), steps: new Map([["s", new Map([["k", [1]]])]]), runId: "r" };
 * const own = withOwnCaptures(scope, "s", new Map([["k", 2]]));
 * if (own.steps.get("s")?.get("k") !== 2 || scope.steps.get("s")?.get("k")?.[0] !== 1) throw new Error();
 * ```
 */
export function withOwnCaptures(
  scope: Scope,
  step: string,
  captured: ReadonlyMap<string, unknown>,
): Scope {
  if (scope.steps.get(step) === captured) return scope;
  const steps = new Map(scope.steps);
  steps.set(step, captured);
  return { ...scope, steps };
}

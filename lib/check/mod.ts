/**
 * The check stage: takes a response and a step's checks (an `assert` or a
 * `loop.until` block, and its captures), gives one result per check (passed
 * or not, with a message that says what was expected and what came back)
 * and the captured values. A check that fails is a result, never an
 * exception; a check that cannot be evaluated fails alone.
 *
 * - `assert.ts`: {@linkcode evaluateChecks}, a block's checks in order —
 *   the status (`status_check.ts`), XPath checks (`xpath_check.ts`, over
 *   `xpath.ts`), schema checks (`schema.ts`, OpenAPI lookups in
 *   `openapi.ts`), then path checks (`path_check.ts`, with values under
 *   `at` from `path_select.ts`, and the key a path that found nothing
 *   nearly spells from `near_key.ts`) whose conditional groups are decided
 *   by `groups.ts`. `context.ts` is what every check of a block reads.
 * - `operators.ts`: {@linkcode OPERATOR_TABLE}, one check per operator;
 *   adding an operator is its spelling in `model/operators.ts` and its
 *   check here.
 * - `capture.ts`: a step's captured values, one taker per kind of source;
 *   `link_header.ts` reads a `Link` header's relations.
 * - `json_value.ts`: deep equality, JSON type names and how values are
 *   quoted in messages; `_compact.ts` keeps large values out of results.
 *
 * Other stages may import a file of this folder directly (the runner does):
 * this face imports every part eagerly.
 *
 * @example
 * ```ts
 * import { evaluateChecks } from "./mod.ts";
 * import { loadFlow } from "../load/load_flow.ts";
 * import { ReceivedResponse } from "../http/response.ts";
 * const { flow } = loadFlow(
 *   "name: f\nsteps:\n  - name: s\n    request: {url: http://x.test}\n    assert:\n      status: 200\n",
 *   "f.yaml",
 * );
 * const scope = { env: () => undefined, vars: new Map(), steps: new Map(), runId: "r" };
 * const [status] = evaluateChecks(flow!.steps[0].assert, new ReceivedResponse(500, {}, ""), scope, "assert");
 * if (status.message !== "status: expected 200, got 500") throw new Error(status.message);
 * ```
 *
 * @module
 */
export { applyOperator, evaluateChecks, UNDECIDED } from "./assert.ts";
export { OPERATOR_TABLE, type OperatorCheck } from "./operators.ts";
export { capture, type Captured, describeSource } from "./capture.ts";
export { deepEqual, jsonType, show } from "./json_value.ts";
export { checkSchema } from "./schema.ts";
export { prepareXPath, queryXPath, type XPathResult } from "./xpath.ts";
export type { CheckContext } from "./context.ts";

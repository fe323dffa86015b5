/**
 * XPath checks (`xpath` entries): what an expression selects in an XML or
 * HTML body (text, texts or a value), through the check's operator.
 *
 * @module
 */
import { render } from "../expr/template.ts";
import type { XPathCheck } from "../model/flow.ts";
import type { AssertionResult } from "../model/result.ts";
import { compact } from "./_compact.ts";
import type { CheckContext } from "./context.ts";
import { show } from "./json_value.ts";
import { applyOperator } from "./operators.ts";
import { queryXPath } from "./xpath.ts";

/**
 * One XPath check's result.
 *
 * @example
 * ```ts
 * import { checkXPath } from "./xpath_check.ts";
 * import { prepareXPath } from "./xpath.ts";
 * import { loadFlow } from "../load/load_flow.ts";
 * import { ReceivedResponse } from "../http/response.ts";
 * import { PLAIN } from "../model/masking.ts";
 * const { flow } = loadFlow(
 *   "name: f\nsteps:\n  - name: s\n    request: {url: http://x.test}\n    assert:\n      json:\n        - {xpath: \"string(/a/b)\", equals: hi}\n",
 *   "f.yaml",
 * );
 * await prepareXPath([flow!]);
 * const check = flow!.steps[0].assert.xpaths![0];
 * const result = checkXPath(check, {
 *   response: new ReceivedResponse(200, { "content-type": "application/xml" }, "<a><b>hi</b></a>"),
 *   scope: { env: () => undefined, vars: new Map(), steps: new Map(), runId: "r" },
 *   phase: "assert", display: PLAIN,
 * });
 * if (!result.passed) throw new Error(result.message);
 * ```
 */
export function checkXPath(
  check: XPathCheck,
  { response, scope, phase, display }: CheckContext,
): AssertionResult {
  const expected = render(check.expected, scope);
  const got = queryXPath(response, check.xpath);
  const label = check.name ? `${check.name}: xpath ${check.xpath}` : `xpath ${check.xpath}`;
  const base = {
    phase,
    path: `xpath ${check.xpath}`,
    operator: check.operator,
    expected,
    line: check.line,
    column: check.column,
    ...(check.name ? { name: check.name } : {}),
  };
  if (check.operator === "exists" && (got.found || !got.invalid)) {
    const passed = got.found === expected;
    return {
      ...base,
      actual: got.found ? compact(got.value, display) : null,
      found: got.found,
      passed,
      message: `${label} ${got.found ? "exists" : "does not exist"}${
        passed ? "" : ` (expected it ${expected ? "to exist" : "not to exist"})`
      }`,
    };
  }
  if (!got.found) {
    // Why may quote the body (a parse error): masked as a value, words and all.
    const why = display.redact(got.why);
    return { ...base, actual: null, found: false, passed: false, message: `${label}: ${why}` };
  }
  const problem = applyOperator(check.operator, got.value, expected, display);
  return {
    ...base,
    actual: compact(got.value, display),
    found: true,
    passed: problem === undefined,
    message: `${label}: ${problem ?? `${check.operator} ${show(expected, 80, display)} holds`}`,
  };
}

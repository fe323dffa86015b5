/**
 * Assertions: checks × response → results. Every check of a block is
 * evaluated and reported; a failure is a result with `passed: false` and a
 * message, never an exception. Equality is deep and strict: `5` and `"5"`
 * differ, and the message says the types differ.
 *
 * Each kind of check has its module: `status_check.ts`, `xpath_check.ts`,
 * `schema.ts`, `path_check.ts` (with `groups.ts` for conditional groups);
 * this one runs a block's checks in order and contains a check that throws.
 *
 * @module
 */
import { ExpressionError, type Scope } from "../expr/template.ts";
import type { Checks, SchemaCheck, XPathCheck } from "../model/flow.ts";
import type { ReceivedResponse } from "../http/response.ts";
import type { AssertionResult } from "../model/result.ts";
import { type Masking, PLAIN } from "../model/masking.ts";
import { internalTold } from "../model/internal_told.ts";
import { around, tell } from "../model/told.ts";
import { compact } from "./_compact.ts";
import type { CheckContext } from "./context.ts";
import { GroupBranches } from "./groups.ts";
import { checkPath } from "./path_check.ts";
import { checkSchema } from "./schema.ts";
import { checkStatus } from "./status_check.ts";
import { checkXPath } from "./xpath_check.ts";

// Older importers (run/, tests) find these here; each is defined where its kind of work is.
export { deepEqual, jsonType, show } from "./json_value.ts";
export { applyOperator, UNDECIDED } from "./operators.ts";

/**
 * Evaluates every check of an `assert` or `loop.until` block against a
 * response. Expected values are resolved against `scope` (they may hold
 * expressions); an unresolvable one throws `ExpressionError`. Values in
 * messages are shortened by `display` (a run passes its redactor, so they are
 * masked before they are cut).
 *
 * @example
 * ```ts
 * import { evaluateChecks } from "./assert.ts";
 * import { loadFlow } from "../load/load_flow.ts";
 * import { ReceivedResponse } from "../http/response.ts";
 * const { flow } = loadFlow(
 *   "name: f\nsteps:\n  - name: s\n    request: {url: http://x.test}\n    assert:\n      status: 200\n      json:\n        - {path: $.json.state, equals: ready}\n",
 *   "f.yaml",
 * );
 * const response = new ReceivedResponse(200, {}, '{"state": "pending"}');
 * const scope = { env: () => undefined, vars: new Map(), steps: new Map(), runId: "r" };
 * const [status, state] = evaluateChecks(flow!.steps[0].assert, response, scope, "assert");
 * if (!status.passed || state.passed) throw new Error();
 * if (state.message !== '$.json.state: expected "ready", got "pending"') throw new Error(state.message);
 * ```
 */
export function evaluateChecks(
  checks: Checks,
  response: ReceivedResponse,
  scope: Scope,
  phase: AssertionResult["phase"],
  display: Masking = PLAIN,
  request?: { method: string; url: string },
): AssertionResult[] {
  const context: CheckContext = { response, scope, phase, display };
  const results: AssertionResult[] = [];
  if (checks.status) results.push(checkStatus(checks.status, response.status, phase, scope));
  for (const check of checks.xpaths ?? []) results.push(xpathResult(check, context));
  for (const check of checks.schemas ?? []) results.push(schemaResult(check, context, request));
  // Each conditional group is decided once; the branch not taken is one skipped result.
  const branches = new GroupBranches(context);
  for (const check of checks.paths) {
    const got = contained(check, check.path.source, check.operator, context, () => {
      const skip = branches.skippedBy(check);
      return skip === undefined ? checkPath(check, context) : skip;
    });
    if (got) results.push(got);
  }
  // An expected value from a capture can be as large as a body: reports keep its head, as for
  // the actual value.
  for (const r of results) r.expected = compact(r.expected, display);
  return results;
}

function xpathResult(check: XPathCheck, context: CheckContext): AssertionResult {
  return contained(check, check.xpath, check.operator, context, () => checkXPath(check, context));
}

/** A schema check, its actual value and message masked like every other check's. */
function schemaResult(
  check: SchemaCheck,
  context: CheckContext,
  request: { method: string; url: string } | undefined,
): AssertionResult {
  const { response, phase, display } = context;
  return contained(check, check.source, check.kind, context, () => {
    const r = checkSchema(
      check,
      response,
      request?.method ?? "GET",
      request?.url ?? "http://x/",
      phase,
    );
    return { ...r, actual: compact(r.actual, display), message: display.redact(r.message) };
  });
}

/**
 * `evaluate()`, or when it throws (a library's exception, a stack overflow
 * on a pathological value), a failed result saying so: one check that
 * cannot be evaluated fails, and the step's other checks and the run go on.
 */
function contained<T extends AssertionResult | null>(
  at: { line: number; column: number },
  path: string,
  operator: string,
  { phase, display }: CheckContext,
  evaluate: () => T,
): T | AssertionResult {
  try {
    return evaluate();
  } catch (error) {
    // An expected value that cannot be resolved is the step's expression error, as before.
    if (error instanceof ExpressionError) throw error;
    return {
      phase,
      path,
      operator,
      expected: null,
      actual: null,
      found: false,
      passed: false,
      // The error's text is a value; the path as written and the rest are flowrun's words.
      message: tell(around(`${path}: `, internalTold("checking", error), ""), display),
      line: at.line,
      column: at.column,
    };
  }
}

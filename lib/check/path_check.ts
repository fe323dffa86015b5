/**
 * Path checks (`json`, `headers`, `cookies`, `body` entries): the value a
 * path selects, through the check's operator, on the response or on each
 * value the enclosing groups' `at` paths select.
 *
 * @module
 */
import { render, valueOf } from "../expr/template.ts";
import { resolvePath, rootHint, select } from "../expr/path.ts";
import type { PathCheck } from "../model/flow.ts";
import type { Masking } from "../model/masking.ts";
import type { AssertionResult } from "../model/result.ts";
import type { ResponseSelection } from "../http/response.ts";
import { compact } from "./_compact.ts";
import type { CheckContext } from "./context.ts";
import { show } from "./json_value.ts";
import { nearKey } from "./near_key.ts";
import { applyOperator } from "./operators.ts";
import { baseValues, pathSelector, type Selector } from "./path_select.ts";

/**
 * One path check's result; a named check leads its message with its name.
 *
 * @example
 * ```ts
 * import { checkPath } from "./path_check.ts";
 * import { compilePath } from "../expr/path.ts";
 * import { compileValue } from "../expr/template.ts";
 * import { ReceivedResponse } from "../http/response.ts";
 * import { PLAIN } from "../model/masking.ts";
 * const check = { path: compilePath("$.json.n", "response"), operator: "gt" as const,
 *   expected: compileValue(1), line: 4, column: 9 };
 * const result = checkPath(check as never, {
 *   response: new ReceivedResponse(200, {}, '{"n": 0}'),
 *   scope: { env: () => undefined, vars: new Map(), steps: new Map(), runId: "r" },
 *   phase: "assert", display: PLAIN,
 * });
 * if (result.message !== "$.json.n: expected a number > 1, got 0") throw new Error(result.message);
 * ```
 */
export function checkPath(check: PathCheck, context: CheckContext): AssertionResult {
  const result = check.base ? evaluateAt(check, context) : evaluatePath(
    check,
    pathSelector(context.response, context.scope),
    check.path.source,
    context,
  );
  // A named check leads its message with its name, in every report.
  return check.name
    ? { ...result, name: check.name, message: `${check.name}: ${result.message}` }
    : result;
}

/** A check inside groups with `at`: evaluated on each value they select; the first failure is the result. */
function evaluateAt(check: PathCheck, context: CheckContext): AssertionResult {
  const { response, scope } = context;
  const bases = baseValues(check.base!, response, scope);
  const where = `${check.base!.map((b) => b.source).join(" › ")} › ${check.path.source}`;
  if ("missing" in bases) return noBase(check, where, bases.missing, context);
  let first: AssertionResult | undefined;
  for (const { value, label } of bases.values) {
    const result = evaluatePath(
      check,
      (path) => select(resolvePath(path, (e) => valueOf(e, scope)), value),
      `${label} › ${check.path.source}`,
      context,
    );
    if (!result.passed) return { ...result, path: where };
    first ??= result;
  }
  const n = bases.values.length;
  return first && n === 1 ? { ...first, path: where } : holdsForEach(check, where, n, context);
}

/** The failure of a check whose singular `at` matched nothing. */
function noBase(
  check: PathCheck,
  where: string,
  missing: string,
  { scope, phase }: CheckContext,
): AssertionResult {
  const outcome = { actual: null, found: false, passed: false, message: `${where}: ${missing}` };
  return resultOf(check, where, render(check.expected, scope), phase, outcome);
}

/** The pass of a check that held on each of `n` values (none when a wildcard `at` matched nothing). */
function holdsForEach(
  check: PathCheck,
  where: string,
  n: number,
  { scope, phase, display }: CheckContext,
): AssertionResult {
  const expected = render(check.expected, scope);
  const message = `${where}: ${check.operator} ${
    show(expected, 80, display)
  } holds for each of ${n}`;
  return resultOf(check, where, expected, phase, {
    actual: null,
    found: n > 0,
    passed: true,
    message,
  });
}

/**
 * A path check's result. Where the check is written goes last, as the
 * reports order keys: they then copy nothing.
 */
function resultOf(
  check: PathCheck,
  path: string,
  expected: unknown,
  phase: AssertionResult["phase"],
  outcome: Outcome,
): AssertionResult {
  return {
    phase,
    path,
    operator: check.operator,
    expected,
    ...outcome,
    ...(check.file ? { file: check.file } : {}),
    line: check.line,
    column: check.column,
  };
}

/** What a path check found and whether it held, as a result has them, in its key order. */
type Outcome = Pick<AssertionResult, "actual" | "found" | "passed" | "message">;

function evaluatePath(
  check: PathCheck,
  selectFrom: Selector,
  label: string,
  { scope, phase, display }: CheckContext,
): AssertionResult {
  const expected = render(check.expected, scope);
  const selection = selectFrom(check.path);
  const outcome = pathOutcome(check, selection, expected, label, display);
  // A path that found nothing may be a typo of a key the response has: name it.
  if (!outcome.passed && !selection.found && selection.problem === undefined) {
    const near = nearKey(check.path, selectFrom);
    if (near) outcome.message += ` (did you mean "${near}"?)`;
  }
  return resultOf(check, check.path.source, expected, phase, outcome);
}

/** The outcome by what the selection found: a problem, `exists`, `each`, nothing, or a value. */
function pathOutcome(
  check: PathCheck,
  selection: ResponseSelection,
  expected: unknown,
  label: string,
  display: Masking,
): Outcome {
  if (selection.problem !== undefined) {
    // The document could not be searched (nested too deep): no operator can hold, `exists: false` included.
    const problem = display.redact(selection.problem);
    return { actual: null, found: false, passed: false, message: `${label}: ${problem}` };
  }
  if (check.operator === "exists") return existsOutcome(check, selection, expected, label, display);
  // A wildcard or filter that selects nothing selects an empty list: length 0, equals [] and
  // type array hold on it; a path to one value that is absent matched nothing.
  const empty = !selection.found && !check.path.singular && !selection.bodyNotJson;
  if (check.each && (selection.found || empty)) {
    return eachOutcome(check, selection, expected, label, display);
  }
  if (!selection.found && !empty) {
    const message = `${label}: nothing matched${whyMissing(check, selection)}`;
    return { actual: null, found: false, passed: false, message };
  }
  const problem = applyOperator(check.operator, selection.value, expected, display);
  return {
    actual: compact(selection.value, display),
    found: selection.found,
    passed: problem === undefined,
    message: `${label}: ${problem ?? `${check.operator} ${show(expected, 80, display)} holds`}`,
  };
}

/** Why a path found nothing: a body that is not JSON, or a hint about its root. */
function whyMissing(check: PathCheck, selection: ResponseSelection): string {
  if (selection.bodyNotJson) return " (the response body is not JSON)";
  // Paths relative to a group's "at" have no response root to hint about.
  return check.base ? "" : rootHint(check.path);
}

function existsOutcome(
  check: PathCheck,
  selection: ResponseSelection,
  expected: unknown,
  label: string,
  display: Masking,
): Outcome {
  const passed = selection.found === expected;
  const actual = selection.found ? compact(selection.value, display) : null;
  const message = passed
    ? `${label} ${selection.found ? "exists" : "does not exist"}`
    : selection.found
    ? `${label}: ${applyOperator("exists", selection.value, false, display)}`
    : `${label} does not exist${whyMissing(check, selection)}`;
  return { actual, found: selection.found, passed, message };
}

/** `each`: the operator on every value of the list; the first that fails is the outcome. */
function eachOutcome(
  check: PathCheck,
  selection: ResponseSelection,
  expected: unknown,
  label: string,
  display: Masking,
): Outcome {
  const values = selection.value as unknown[];
  const failing = values.findIndex((v) =>
    applyOperator(check.operator, v, expected, display) !== undefined
  );
  const problem = failing === -1
    ? undefined
    : applyOperator(check.operator, values[failing], expected, display);
  return {
    actual: compact(failing === -1 ? values : values[failing], display),
    found: selection.found,
    passed: problem === undefined,
    message: problem === undefined
      ? `${label}: ${check.operator} ${
        show(expected, 80, display)
      } holds for each of ${values.length}`
      : `${label}: value ${failing + 1} of ${values.length}: ${problem}`,
  };
}

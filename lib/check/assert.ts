/**
 * Assertions: checks × response → results. Every check of a block is
 * evaluated and reported; a failure is a result with `passed: false` and a
 * message, never an exception. Equality is deep and strict: `5` and `"5"`
 * differ, and the message says the types differ.
 *
 * @module
 */
import { ExpressionError, render, type Scope, valueOf } from "../expr/template.ts";
import type {
  CheckGroup,
  Checks,
  GroupCondition,
  Operator,
  PathCheck,
  StatusCheck,
  XPathCheck,
} from "../model/flow.ts";
import { type CompiledPath, resolvePath, rootHint, select } from "../expr/path.ts";
import type { ReceivedResponse, ResponseSelection } from "../http/response.ts";
import { jsonHead } from "../_util/json_head.ts";
import type { AssertionResult } from "../model/result.ts";
import { deepEqual, HEAD_SLACK, jsonType, PLAIN, show } from "./json_value.ts";
import { OPERATOR_TABLE } from "./operators.ts";
import type { Masking } from "../model/masking.ts";
import { checkSchema } from "./schema.ts";
import { queryXPath } from "./xpath.ts";
import { internalError } from "../_util/internal_error.ts";

export { deepEqual, jsonType, show };

const MAX_ACTUAL = 2000;

/**
 * Keeps huge values (a whole body) out of reports: past a limit they become a
 * marked excerpt, masked before it is cut.
 */
function compact(value: unknown, display: Masking): unknown {
  if (value === null || typeof value !== "object") {
    return typeof value === "string" && value.length > MAX_ACTUAL
      ? `${display.head(value, MAX_ACTUAL)} (${value.length - MAX_ACTUAL} more characters)`
      : value;
  }
  const { text, total } = jsonHead(value, MAX_ACTUAL + HEAD_SLACK);
  if (total !== undefined && total <= MAX_ACTUAL) return value;
  const more = total === undefined
    ? `more than ${HEAD_SLACK} more characters`
    : `${total - MAX_ACTUAL} more characters`;
  return `${display.head(text, MAX_ACTUAL)} (${more}, truncated)`;
}

/**
 * Applies one operator to a found value. Returns `undefined` when it holds,
 * else what went wrong (the text after "path: "). Each operator is defined
 * once, in {@linkcode OPERATOR_TABLE}.
 *
 * @example
 * ```ts
 * import { applyOperator } from "./assert.ts";
 * if (applyOperator("equals", "pending", "ready") !== 'expected "ready", got "pending"') throw new Error();
 * if (applyOperator("gte", 3, 2) !== undefined) throw new Error();
 * ```
 */
export function applyOperator(
  operator: Operator,
  actual: unknown,
  expected: unknown,
  display: Masking = PLAIN,
): string | undefined {
  return OPERATOR_TABLE[operator].check(actual, expected, display);
}

function checkPath(
  check: PathCheck,
  response: ReceivedResponse,
  scope: Scope,
  phase: AssertionResult["phase"],
  display: Masking,
): AssertionResult {
  const result = check.base
    ? evaluateAt(check, response, scope, phase, display)
    : evaluatePath(check, pathSelector(response, scope), check.path.source, phase, scope, display);
  // A named check leads its message with its name, in every report.
  return check.name
    ? { ...result, name: check.name, message: `${check.name}: ${result.message}` }
    : result;
}

/** Selects a path's values from some document: the response, or a value a group's `at` selected. */
type Selector = (path: CompiledPath) => ResponseSelection;

function pathSelector(response: ReceivedResponse, scope: Scope): Selector {
  return (path) => response.select(resolvePath(path, (e) => valueOf(e, scope)));
}

/**
 * The values a chain of `at` paths selects, each labelled for messages
 * (`$.json.articles[*] value 2 of 5`), or why there are none.
 */
function baseValues(
  base: readonly CompiledPath[],
  response: ReceivedResponse,
  scope: Scope,
): { values: { value: unknown; label: string }[] } | { missing: string } {
  let values = [{ value: undefined as unknown, label: "" }];
  base.forEach((at, i) => {
    const next: { value: unknown; label: string }[] = [];
    for (const v of values) {
      const selection = i === 0
        ? pathSelector(response, scope)(at)
        : select(resolvePath(at, (e) => valueOf(e, scope)), v.value);
      const label = `${v.label}${v.label ? " › " : ""}${at.source}`;
      if (at.singular) {
        if (selection.found) next.push({ value: selection.value, label });
      } else {
        const list = selection.value as unknown[];
        list.forEach((value, n) =>
          next.push({ value, label: `${label} value ${n + 1} of ${list.length}` })
        );
      }
    }
    values = next;
  });
  // A singular "at" that matched nothing is a failure; a wildcard that matched nothing is none to check.
  const empty = values.length === 0 && base.every((b) => b.singular);
  return empty
    ? { missing: `${base.map((b) => b.source).join(" › ")} matched nothing` }
    : { values };
}

/** A check inside groups with `at`: evaluated on each value they select; the first failure is the result. */
function evaluateAt(
  check: PathCheck,
  response: ReceivedResponse,
  scope: Scope,
  phase: AssertionResult["phase"],
  display: Masking,
): AssertionResult {
  const bases = baseValues(check.base!, response, scope);
  const where = `${check.base!.map((b) => b.source).join(" › ")} › ${check.path.source}`;
  if ("missing" in bases) {
    return {
      phase,
      path: where,
      operator: check.operator,
      expected: render(check.expected, scope),
      actual: null,
      found: false,
      passed: false,
      message: `${where}: ${bases.missing}`,
      line: check.line,
      column: check.column,
    };
  }
  let first: AssertionResult | undefined;
  for (const { value, label } of bases.values) {
    const result = evaluatePath(
      check,
      (path) => select(resolvePath(path, (e) => valueOf(e, scope)), value),
      `${label} › ${check.path.source}`,
      phase,
      scope,
      display,
    );
    if (!result.passed) return { ...result, path: where };
    first ??= result;
  }
  const n = bases.values.length;
  return first && n === 1 ? { ...first, path: where } : {
    phase,
    path: where,
    operator: check.operator,
    expected: render(check.expected, scope),
    actual: null,
    found: n > 0,
    passed: true,
    message: `${where}: ${check.operator} ${
      show(render(check.expected, scope), 80, display)
    } holds for each of ${n}`,
    line: check.line,
    column: check.column,
  };
}

function evaluatePath(
  check: PathCheck,
  selectFrom: Selector,
  label: string,
  phase: AssertionResult["phase"],
  scope: Scope,
  display: Masking,
): AssertionResult {
  const expected = render(check.expected, scope);
  const selection = selectFrom(check.path);
  // Paths relative to a group's "at" have no response root to hint about.
  const hint = (path: CompiledPath) => check.base ? "" : rootHint(path);
  // Where the check is written goes last, as the reports order keys: they then copy nothing.
  const base = { phase, path: check.path.source, operator: check.operator, expected };
  const at = { line: check.line, column: check.column };
  if (selection.problem !== undefined) {
    // The document could not be searched (nested too deep): no operator can hold, `exists: false` included.
    return {
      ...base,
      actual: null,
      found: false,
      passed: false,
      message: `${label}: ${selection.problem}`,
      ...at,
    };
  }
  if (check.operator === "exists") {
    const passed = selection.found === expected;
    const actual = selection.found ? compact(selection.value, display) : null;
    const message = passed
      ? `${label} ${selection.found ? "exists" : "does not exist"}`
      : selection.found
      ? `${label}: ${applyOperator("exists", selection.value, false, display)}`
      : `${label} does not exist${
        selection.bodyNotJson ? " (the response body is not JSON)" : hint(check.path)
      }`;
    return { ...base, actual, found: selection.found, passed, message, ...at };
  }
  // A wildcard or filter that selects nothing selects an empty list: length 0, equals [] and
  // type array hold on it; a path to one value that is absent matched nothing.
  const empty = !selection.found && !check.path.singular && !selection.bodyNotJson;
  if (check.each && (selection.found || empty)) {
    const values = selection.value as unknown[];
    const failing = values.findIndex((v) =>
      applyOperator(check.operator, v, expected, display) !== undefined
    );
    const problem = failing === -1
      ? undefined
      : applyOperator(check.operator, values[failing], expected, display);
    return {
      ...base,
      actual: compact(failing === -1 ? values : values[failing], display),
      found: selection.found,
      passed: problem === undefined,
      message: problem === undefined
        ? `${label}: ${check.operator} ${
          show(expected, 80, display)
        } holds for each of ${values.length}`
        : `${label}: value ${failing + 1} of ${values.length}: ${problem}`,
      ...at,
    };
  }
  if (!selection.found && !empty) {
    const why = selection.bodyNotJson ? " (the response body is not JSON)" : hint(check.path);
    return {
      ...base,
      actual: null,
      found: false,
      passed: false,
      message: `${label}: nothing matched${why}`,
      ...at,
    };
  }
  const problem = applyOperator(check.operator, selection.value, expected, display);
  return {
    ...base,
    actual: compact(selection.value, display),
    found: selection.found,
    passed: problem === undefined,
    message: `${label}: ${problem ?? `${check.operator} ${show(expected, 80, display)} holds`}`,
    ...at,
  };
}

/** An XPath check: what the expression selects (text, texts or a value), through the operator. */
function checkXPath(
  check: XPathCheck,
  response: ReceivedResponse,
  scope: Scope,
  phase: AssertionResult["phase"],
  display: Masking,
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
    return { ...base, actual: null, found: false, passed: false, message: `${label}: ${got.why}` };
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

function checkStatus(
  check: StatusCheck,
  status: number,
  phase: AssertionResult["phase"],
): AssertionResult {
  const passed = check.expected.includes(status);
  const expected = check.operator === "equals" ? check.expected[0] : check.expected;
  const want = check.operator === "equals" ? String(expected) : `one of ${show(expected)}`;
  return {
    phase,
    path: "status",
    operator: check.operator,
    expected,
    actual: status,
    found: true,
    passed,
    message: passed ? `status ${status}` : `status: expected ${want}, got ${status}`,
    line: check.line,
    column: check.column,
  };
}

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
  const results: AssertionResult[] = [];
  if (checks.status) results.push(checkStatus(checks.status, response.status, phase));
  for (const check of checks.xpaths ?? []) {
    results.push(
      contained(
        check,
        check.xpath,
        check.operator,
        phase,
        display,
        () => checkXPath(check, response, scope, phase, display),
      ),
    );
  }
  for (const check of checks.schemas ?? []) {
    results.push(contained(check, check.source, check.kind, phase, display, () => {
      const r = checkSchema(
        check,
        response,
        request?.method ?? "GET",
        request?.url ?? "http://x/",
        phase,
      );
      return { ...r, actual: compact(r.actual, display), message: display.redact(r.message) };
    }));
  }
  // Each conditional group is decided once; the branch not taken is one skipped result.
  const decided = new Map<CheckGroup, Decision>();
  const reported = new Set<string>();
  for (const check of checks.paths) {
    const got = contained(check, check.path.source, check.operator, phase, display, () => {
      const skip = skippedBy(check, decided, reported, response, scope, phase, display);
      return skip === undefined ? checkPath(check, response, scope, phase, display) : skip;
    });
    if (got) results.push(got);
  }
  // An expected value from a capture can be as large as a body: reports keep its head, as for
  // the actual value.
  for (const r of results) r.expected = compact(r.expected, display);
  return results;
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
  phase: AssertionResult["phase"],
  display: Masking,
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
      message: display.redact(`${path}: ${internalError("checking", error)}`),
      line: at.line,
      column: at.column,
    };
  }
}

/** How a group's condition reads in messages: its value, or its path under its bases. */
function conditionSource(c: GroupCondition): string {
  return c.kind === "value" ? c.source : [...c.base ?? [], c.path].map((p) => p.source).join(" › ");
}

/** Whether a group's conditions hold, and if not, the first that does not with why. */
interface Decision {
  holds: boolean;
  /** The condition that decided it: the first that failed, or the last that held. */
  condition: GroupCondition;
  actual: unknown;
  found: boolean;
  expected: unknown;
  /** What the operator says when the condition does not hold. */
  problem?: string;
  /**
   * Why the condition could not be told at all (its path or its match did
   * not finish in time): neither branch runs, and the group fails.
   */
  undecided?: string;
}

/**
 * Whether a check is in a branch not taken: `undefined` when it runs, the
 * skipped result for the first check of that branch, `null` for the others.
 */
function skippedBy(
  check: PathCheck,
  decided: Map<CheckGroup, Decision>,
  reported: Set<string>,
  response: ReceivedResponse,
  scope: Scope,
  phase: AssertionResult["phase"],
  display: Masking,
): AssertionResult | null | undefined {
  for (const { group, branch } of check.groups ?? []) {
    let d = decided.get(group);
    if (!d) decided.set(group, d = decide(group, response, scope, display));
    if (d.undecided !== undefined) {
      // A condition that could not be told is not one that does not hold: an input that makes
      // it too slow to evaluate must not choose the branch.
      const key = `${group.line}:${group.column}:undecided`;
      if (reported.has(key)) return null;
      reported.add(key);
      const c = d.condition;
      const source = conditionSource(c);
      return {
        phase,
        path: source,
        operator: c.operator,
        expected: d.expected,
        actual: compact(d.actual, display),
        found: d.found,
        passed: false,
        ...(group.name ? { name: group.name } : {}),
        message: `${group.name ? `${group.name}: ` : ""}neither branch was checked: its ` +
          `condition ${source} ${c.operator} ${
            show(d.expected, 80, display)
          } could not be told (${d.undecided})`,
        line: group.line,
        column: group.column,
      };
    }
    if (d.holds === (branch === "then")) continue;
    const key = `${group.line}:${group.column}:${branch}`;
    if (reported.has(key)) return null;
    reported.add(key);
    const c = d.condition;
    const source = conditionSource(c);
    const n = group.counts[branch];
    const what = `${n} ${branch === "else" ? '"else" ' : ""}check${n === 1 ? "" : "s"}`;
    const because = d.holds
      ? `its condition ${source} ${c.operator} ${show(d.expected, 80, display)} holds`
      : `its condition ${source} ${c.operator} ${
        show(d.expected, 80, display)
      } does not hold (${d.problem})`;
    return {
      phase,
      path: source,
      operator: c.operator,
      expected: d.expected,
      actual: compact(d.actual, display),
      found: d.found,
      passed: true,
      skipped: true,
      ...(group.name ? { name: group.name } : {}),
      message: `${group.name ? `${group.name}: ` : ""}skipped ${what}: ${because}`,
      line: group.line,
      column: group.column,
    };
  }
  return undefined;
}

/**
 * How an operator's message begins when it could not tell (`matches` whose
 * match did not finish in time); see lib/check/operators.ts.
 */
export const UNDECIDED = "could not tell";

/** Evaluates a group's conditions, in order, until one does not hold. */
function decide(
  group: CheckGroup,
  response: ReceivedResponse,
  scope: Scope,
  display: Masking,
): Decision {
  let last: Decision | undefined;
  for (const c of group.when) {
    const expected = render(c.expected, scope);
    let actual: unknown;
    let found = true;
    let pathProblem: string | undefined;
    if (c.kind === "value") actual = render(c.value, scope);
    else {
      const bases = c.base ? baseValues(c.base, response, scope) : undefined;
      const doc = bases && "values" in bases ? bases.values[0] : undefined;
      const selection = bases === undefined
        ? pathSelector(response, scope)(c.path)
        : doc
        ? select(resolvePath(c.path, (e) => valueOf(e, scope)), doc.value)
        : { found: false, value: null };
      found = selection.found || (!c.path.singular && selection.problem === undefined);
      pathProblem = "problem" in selection ? selection.problem : undefined;
      actual = found ? selection.value : undefined;
    }
    const problem = c.operator === "exists"
      ? (found === expected ? undefined : found ? "it exists" : "it does not exist")
      : !found
      ? "nothing matched"
      : applyOperator(c.operator, actual, expected, display);
    const undecided = pathProblem ?? (problem?.startsWith(UNDECIDED) ? problem : undefined);
    last = {
      holds: problem === undefined,
      condition: c,
      actual: actual ?? null,
      found,
      expected,
      problem,
      ...(undecided !== undefined ? { undecided } : {}),
    };
    if (problem !== undefined || undecided !== undefined) return last;
  }
  return last!;
}

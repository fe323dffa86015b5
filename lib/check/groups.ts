/**
 * Conditional check groups (`when` with `then`/`else`): each group's
 * conditions are decided once per block, and the branch not taken becomes
 * one skipped result; a condition that could not be told (a path or a match
 * that did not finish in time) checks neither branch and fails the group.
 *
 * @module
 */
import { ExpressionError, render, type Scope, valueOf } from "../expr/template.ts";
import { resolvePath, select } from "../expr/path.ts";
import type { CheckGroup, GroupCondition, PathCheck } from "../model/flow.ts";
import type { AssertionResult } from "../model/result.ts";
import { compact } from "./_compact.ts";
import { pluralWord } from "../_util/plural.ts";
import type { CheckContext } from "./context.ts";
import { show } from "./json_value.ts";
import { applyOperator, UNDECIDED } from "./operators.ts";
import { baseValues, pathSelector } from "./path_select.ts";

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
 * The groups of one block: each decided once, each skipped branch reported
 * once (by its first check).
 *
 * @example
 * ```ts
 * import { GroupBranches } from "./groups.ts";
 * import { compileValue } from "../expr/template.ts";
 * import { ReceivedResponse } from "../http/response.ts";
 * import { PLAIN } from "../model/masking.ts";
 * const group = { when: [{ kind: "value", source: "fast", value: compileValue("fast"),
 *   operator: "equals", expected: compileValue("slow"), line: 2, column: 3 }],
 *   counts: { then: 1, else: 0 }, line: 2, column: 3 };
 * const branches = new GroupBranches({
 *   response: new ReceivedResponse(200, {}, "{}"),
 *   scope: { env: () => undefined, vars: new Map(), steps: new Map(), runId: "r" },
 *   phase: "assert", display: PLAIN,
 * });
 * const check = { groups: [{ group, branch: "then" }] };
 * const skipped = branches.skippedBy(check as never);
 * if (!skipped?.skipped || branches.skippedBy(check as never) !== null) throw new Error();
 * ```
 */
export class GroupBranches {
  readonly #decided = new Map<CheckGroup, Decision>();
  readonly #reported = new Set<string>();

  constructor(readonly context: CheckContext) {}

  /**
   * Whether a check is in a branch not taken: `undefined` when it runs, the
   * skipped result for the first check of that branch, `null` for the others.
   */
  skippedBy(check: PathCheck): AssertionResult | null | undefined {
    for (const { group, branch } of check.groups ?? []) {
      let d = this.#decided.get(group);
      if (!d) this.#decided.set(group, d = decide(group, this.context));
      if (d.undecided !== undefined) {
        // A condition that could not be told is not one that does not hold: an input that makes
        // it too slow to evaluate must not choose the branch.
        if (!this.#first(`${group.line}:${group.column}:undecided`)) return null;
        return undecidedResult(group, d, this.context);
      }
      if (d.holds === (branch === "then")) continue;
      if (!this.#first(`${group.line}:${group.column}:${branch}`)) return null;
      return skippedResult(group, branch, d, this.context);
    }
    return undefined;
  }

  /** Whether `key` is reported now for the first time. */
  #first(key: string): boolean {
    if (this.#reported.has(key)) return false;
    this.#reported.add(key);
    return true;
  }
}

/** The failure of a group whose condition could not be told. */
function undecidedResult(
  group: CheckGroup,
  d: Decision,
  { phase, display }: CheckContext,
): AssertionResult {
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
    ...(group.file ? { file: group.file } : {}),
    line: group.line,
    column: group.column,
  };
}

/** The one result of a branch not taken, saying why. */
function skippedResult(
  group: CheckGroup,
  branch: "then" | "else",
  d: Decision,
  { phase, display }: CheckContext,
): AssertionResult {
  const c = d.condition;
  const source = conditionSource(c);
  const n = group.counts[branch];
  const what = `${n} ${branch === "else" ? '"else" ' : ""}${pluralWord(n, "check")}`;
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
    ...(group.file ? { file: group.file } : {}),
    line: group.line,
    column: group.column,
  };
}

/** Evaluates a group's conditions, in order, until one does not hold. */
function decide(group: Pick<CheckGroup, "when">, context: CheckContext): Decision {
  let last: Decision | undefined;
  for (const c of group.when) {
    last = decideCondition(c, context);
    if (last.problem !== undefined || last.undecided !== undefined) return last;
  }
  return last!;
}

/**
 * Whether conditions written like a group's `if` hold on a response: `true`,
 * `false`, or why they cannot be told (a path or a match that did not finish).
 *
 * @example
 * ```ts
 * import { conditionsHold } from "./groups.ts";
 * import { compileValue } from "../expr/template.ts";
 * import { ReceivedResponse } from "../http/response.ts";
 * import { PLAIN } from "../model/masking.ts";
 * const when = [{ kind: "value" as const, source: "a", value: compileValue("a"),
 *   operator: "equals" as const, expected: compileValue("b"), line: 1, column: 1 }];
 * const context = { response: new ReceivedResponse(200, {}, "{}"), phase: "assert" as const,
 *   scope: { env: () => undefined, vars: new Map(), steps: new Map(), runId: "r" }, display: PLAIN };
 * if (conditionsHold(when, context) !== false) throw new Error();
 * ```
 */
export function conditionsHold(when: GroupCondition[], context: CheckContext): boolean | string {
  const d = decide({ when }, context);
  return d.undecided ?? d.holds;
}

function decideCondition(c: GroupCondition, context: CheckContext): Decision {
  const expected = render(c.expected, context.scope);
  const { actual, found, pathProblem } = c.kind === "value"
    ? valueIfAny(c, context.scope)
    : conditionValue(c, context);
  const problem = c.operator === "exists"
    ? (found === expected ? undefined : found ? "it exists" : "it does not exist")
    : !found
    ? "nothing matched"
    : applyOperator(c.operator, actual, expected, context.display);
  const undecided = pathProblem ?? (problem?.startsWith(UNDECIDED) ? problem : undefined);
  return {
    holds: problem === undefined,
    condition: c,
    actual: actual ?? null,
    found,
    expected,
    problem,
    ...(undecided !== undefined ? { undecided } : {}),
  };
}

/**
 * A value condition's value. Under `exists`, one that cannot be resolved (an optional capture
 * left unset) does not exist, as a step's `if` reads it; under another operator it is an error.
 */
function valueIfAny(c: GroupCondition & { kind: "value" }, scope: Scope) {
  try {
    return { actual: render(c.value, scope), found: true, pathProblem: undefined };
  } catch (error) {
    if (!(error instanceof ExpressionError) || c.operator !== "exists") throw error;
    return { actual: undefined, found: false, pathProblem: undefined };
  }
}

/** What a path condition selects: on the response, or on the first value its `at` paths select. */
function conditionValue(
  c: GroupCondition & { kind: "path" },
  { response, scope }: CheckContext,
): { actual: unknown; found: boolean; pathProblem: string | undefined } {
  const bases = c.base ? baseValues(c.base, response, scope) : undefined;
  const doc = bases && "values" in bases ? bases.values[0] : undefined;
  const selection = bases === undefined
    ? pathSelector(response, scope)(c.path)
    : doc
    ? select(resolvePath(c.path, (e) => valueOf(e, scope)), doc.value)
    : { found: false, value: null };
  const found = selection.found || (!c.path.singular && selection.problem === undefined);
  const pathProblem = "problem" in selection ? selection.problem : undefined;
  return { actual: found ? selection.value : undefined, found, pathProblem };
}

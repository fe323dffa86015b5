/**
 * A step's `if`: the first condition that does not hold, as the reason the
 * step is skipped; an expression with no value is an error of the step,
 * except under `exists`, where it is a value that does not exist.
 *
 * @module
 */
import { applyOperator, UNDECIDED } from "../check/assert.ts";
import { show } from "../check/json_value.ts";
import { ExpressionError, render, type Scope } from "../expr/template.ts";
import { internalTold } from "../model/internal_told.ts";
import { around, tell } from "../model/told.ts";
import type { Step } from "../model/flow.ts";
import type { Context } from "./context.ts";
import { expressionMessage } from "./expression_message.ts";

/**
 * Why a step's condition keeps it from running: it does not hold, or it cannot be told.
 *
 * @example
 * ```ts
 * import type { Unmet } from "./condition.ts";
 * const unmet: Unmet = { kind: "condition", message: "Skipped: its condition a equals b does not hold." };
 * if (unmet.kind !== "condition") throw new Error();
 * ```
 */
export interface Unmet {
  kind: "condition" | "expression";
  message: string;
}

/**
 * The first condition of a step's `if` that does not hold, or `undefined`
 * when all hold.
 *
 * @example
 * ```ts
 * import { unmetCondition } from "./condition.ts";
 * import { Redactor } from "../secrets/mod.ts";
 * // deno-lint-ignore no-explicit-any
 * const none = unmetCondition({ name: "s" } as any, {} as any, { redactor: new Redactor() } as any);
 * if (none !== undefined) throw new Error();
 * ```
 */
export function unmetCondition(
  step: Step,
  scope: Scope,
  ctx: Pick<Context, "redactor">,
): Unmet | undefined {
  for (const c of step.when ?? []) {
    const unmet = conditionProblem(c, scope, ctx);
    if (unmet) return unmet;
  }
  return undefined;
}

type Condition = NonNullable<Step["when"]>[number];

/** Why one condition keeps the step from running, if it does. */
function conditionProblem(
  c: Condition,
  scope: Scope,
  ctx: Pick<Context, "redactor">,
): Unmet | undefined {
  let expected: unknown;
  let problem: string | undefined;
  try {
    const actual = c.operator === "exists" ? valueIfAny(c, scope, ctx) : render(c.value, scope);
    expected = render(c.expected, scope);
    problem = actual instanceof Missing
      ? (expected === false ? undefined : `expected a value, found none: ${actual.why}`)
      : applyOperator(c.operator, actual, expected, ctx.redactor);
  } catch (error) {
    if (error instanceof ExpressionError) {
      return { kind: "expression", message: expressionMessage(error, ctx.redactor) };
    }
    // A condition that cannot be evaluated is the step's error, not the run's end; the error's
    // text is a value, the condition as written and the rest flowrun's words.
    const said = around("", internalTold(`checking its condition ${c.source}`, error), ".");
    return { kind: "expression", message: tell(said, ctx.redactor) };
  }
  if (problem === undefined) return undefined;
  // Each value is masked here, as a check's are (the expected value by show, the actual one and a
  // pattern by the operator, an expression's message by expressionMessage); the condition as
  // written and the rest are flowrun's words, which the reports keep from a short secret.
  const written = `${c.source} ${c.operator} ${show(expected, 80, ctx.redactor)}`;
  if (problem.startsWith(UNDECIDED)) {
    // Not "does not hold": a value that makes the match too slow must not skip the step.
    return {
      kind: "expression",
      message: `Its condition ${written} could not be told: ${problem}.`,
    };
  }
  return {
    kind: "condition",
    message: `Skipped: its condition ${written} does not hold (${problem}).`,
  };
}

/**
 * The value an `exists` condition tests: a value that cannot be resolved (a capture that was never
 * set, a setup output that was never produced) does not exist, so a cleanup step can be guarded.
 */
function valueIfAny(c: Condition, scope: Scope, ctx: Pick<Context, "redactor">): unknown {
  try {
    return render(c.value, scope);
  } catch (error) {
    if (error instanceof ExpressionError) {
      // Masked here, value by value: the message is quoted in the step's, kept as flowrun's words.
      return new Missing(expressionMessage(error, ctx.redactor).replace(/\.$/, ""));
    }
    throw error;
  }
}

/** Nothing there, and why: `exists: true` does not hold for it, `exists: false` does. */
class Missing {
  constructor(readonly why: string) {}
}

/**
 * A `foreach` step: its list evaluated once, then the step (a request or an
 * include) run once per element, each iteration a result of its own named
 * `<step> [<i>] (<as>=<value>)`. An iteration that does not pass stops the
 * rest like a failed step (they are reported skipped), except in a cleanup
 * step (`always: true`), which runs every iteration. The step's captures
 * become lists, one value per iteration that captured it.
 *
 * @module
 */
import { giveWayAfterGuards } from "../_util/time_guard.ts";
import { ExpressionError, render, toText } from "../expr/template.ts";
import { reasonOf } from "../http/request_error.ts";
import type { Foreach, Step } from "../model/flow.ts";
import { type Masking, PLAIN } from "../model/masking.ts";
import type { StepResult } from "../model/result.ts";
import { isSecretCaptureName, isSecretName } from "../secrets/mod.ts";
import { responseLeaves, type SecretInputs, secretLeaves } from "../secrets/discover.ts";
import { type Context, round } from "./context.ts";
import { leaves, skipped } from "./skipped.ts";
import { runStep } from "./step.ts";
import { recordExchanges } from "./auth_steps.ts";
import { type Level, type Live, record, type Walk } from "./walk.ts";
import { expressionMessage } from "./expression_message.ts";

/** Where a foreach step runs: the fields of the step loop's `StepList` it needs. */
export interface Iterating {
  scope: Live;
  ctx: Context;
  walk: Walk;
  inputs: SecretInputs;
  level: Level;
}

/** Runs an include step as one iteration (the step loop's own, passed in to keep one way down). */
export type RunInclude = (step: Step, at: Iterating) => Promise<string | undefined>;

/** Longest element value shown in an iteration's name. */
const SHOWN = 40;

/**
 * An iteration's name: the step's, its index, and a single element's value,
 * masked by `display` then shortened. The value is a value, not a word of
 * the name: a short secret (a password `admin`) is masked there as in any
 * value, which the reports, keeping a name's short words, no longer do.
 *
 * @example
 * ```ts
 * import { iterationName } from "./foreach.ts";
 * import { Redactor } from "../secrets/mod.ts";
 * if (iterationName("delete", 2, "id", 42) !== "delete [2] (id=42)") throw new Error();
 * if (iterationName("check", 0, "item", { a: 1 }) !== "check [0]") throw new Error();
 * const r = new Redactor();
 * r.add("admin");
 * if (iterationName("admin login", 0, "user", "admin", r) !== "admin login [0] (user=***)") throw new Error();
 * ```
 */
export function iterationName(
  step: string,
  index: number,
  as: string,
  value: unknown,
  display: Masking = PLAIN,
): string {
  const single = value === null || typeof value !== "object";
  if (!single) return `${step} [${index}]`;
  const text = toText(value).replace(/\s+/g, " ");
  return `${step} [${index}] (${as}=${display.shorten(text, SHOWN)})`;
}

/**
 * Runs a foreach step; returns why the flow stops after it, if it does.
 *
 * @example
 * ```ts
 * import { runForeach } from "./foreach.ts";
 * import { compileValue } from "../expr/template.ts";
 * import { Redactor } from "../secrets/mod.ts";
 * import type { StepResult } from "../model/result.ts";
 * const walk = { ref: { file: "f.yaml", name: "f" }, started: 0, results: [] as StepResult[], maskedAt: [] as number[] };
 * const ctx = { reporter: {}, redactor: new Redactor(), secret: () => {} };
 * const foreach = { items: compileValue([]), source: "the list", as: "item", index: "item_index", max: 5 };
 * const step = { name: "s", line: 1, column: 1, captures: [{ name: "id" }], foreach };
 * const scope = { env: () => undefined, vars: new Map(), steps: new Map(), runId: "r" };
 * const inputs = { literals: new Set<string>(), vars: new Set<string>(), env: new Set<string>(), captures: new Set<string>() };
 * // deno-lint-ignore no-explicit-any
 * const stop = await runForeach(step as any, { scope, ctx: ctx as any, walk, inputs, level: { prefix: "" } }, async () => undefined);
 * if (stop !== undefined || walk.results[0].status !== "skipped") throw new Error();
 * if ((scope.steps.get("s")?.get("id") as unknown[]).length !== 0) throw new Error();
 * ```
 */
export async function runForeach(
  step: Step,
  at: Iterating,
  runInclude: RunInclude,
): Promise<string | undefined> {
  const each = step.foreach!;
  const list = listOf(each, at);
  if (typeof list === "string") return await stepError(step, list, at);
  const merged = new Map<string, unknown[]>(declared(step).map((n) => [n, []]));
  at.scope.steps.set(step.name, merged as Map<string, unknown>);
  if (list.length === 0) return await skipEmpty(step, at);
  const { as } = each;
  // Sent in a secret place, every element is secret; named like a secret, what a server
  // issues is (a list of tokens' answers holds their projects and times too).
  if (at.inputs.vars.has(as)) secretLeaves(list, at.ctx.secret);
  else if (isSecretName(as) || isSecretCaptureName(as)) {
    responseLeaves(list, at.ctx.secret, at.inputs.clear);
  }
  // A cleanup step runs every iteration; any other stops at the first that does not pass.
  const goOn = step.always === true;
  let stop: string | undefined;
  for (let i = 0; i < list.length; i++) {
    await giveWayAfterGuards();
    const named = { ...step, name: iterationName(step.name, i, as, list[i], at.ctx.redactor) };
    if (!goOn) stop ??= interrupted(at.ctx);
    if (stop !== undefined && !goOn) {
      await skipIteration(named, stop, at);
      continue;
    }
    const got = await iteration(named, step, i, list[i], at, runInclude);
    stop ??= got.stop;
    for (const [key, value] of got.values) {
      (merged.get(key) ?? merged.set(key, []).get(key)!).push(value);
    }
  }
  return stop;
}

/** An empty list: the step (an include's steps with it) skipped with the reason; the flow goes on. */
async function skipEmpty(step: Step, at: Iterating): Promise<undefined> {
  const why = `Skipped: the foreach list${quoted(step.foreach!)} is empty.`;
  for (const leaf of leaves(step, at.level)) {
    const r = skipped(leaf.step, why, since(at.walk));
    await record({ ...r, failure_kind: "condition" }, leaf, at.walk, at.ctx);
  }
}

/** One iteration: the element and its index as vars, the step run under the iteration's name. */
function iteration(
  named: Step,
  step: Step,
  index: number,
  element: unknown,
  at: Iterating,
  runInclude: RunInclude,
): Promise<{ stop: string | undefined; values: Map<string, unknown> }> {
  const each = step.foreach!;
  const vars = new Map(at.scope.vars).set(each.as, element).set(each.index, index);
  const here = { ...at, scope: { ...at.scope, vars } };
  return step.include
    ? iterateInclude(named, here, runInclude)
    : iterateRequest(step, named.name, here);
}

/** The list the step runs over, or why there is none (a message). */
function listOf(each: Foreach, at: Iterating): unknown[] | string {
  let list: unknown;
  try {
    list = render(each.items, at.scope);
  } catch (error) {
    if (!(error instanceof ExpressionError)) throw error;
    return `The foreach list could not be evaluated: ${expressionMessage(error, at.ctx.redactor)}`;
  }
  if (!Array.isArray(list)) {
    return `The foreach list${quoted(each)} is ${kindOf(list)}, not a list. ` +
      "Capture a list (a path that selects several values, e.g. $.json.items[*].id) " +
      "or write the elements as a YAML list.";
  }
  if (list.length > each.max) {
    return `The foreach list${quoted(each)} has ${list.length} elements, more than ` +
      `its bound of ${each.max}. Raise max_iterations (at most 10000), ` +
      "or run over a part of the list (a filter in the capture's path).";
  }
  return list;
}

/** What a value is, for the message of a list that is not one. */
function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (typeof value === "object") return "a map";
  const text = toText(value);
  return `${typeof value === "string" ? "the string" : `the ${typeof value}`} ${
    JSON.stringify(text.length > SHOWN ? `${text.slice(0, SHOWN - 1)}…` : text)
  }`;
}

/** The list's expression as written, after a space; nothing for a list written out. */
function quoted(each: Foreach): string {
  return each.source === "the list" ? "" : ` "${each.source}"`;
}

/** The names a step hands on: its captures, an include's outputs. */
function declared(step: Step): string[] {
  const outputs = step.include?.flow.outputs?.map((o) => o.name) ?? [];
  return [...new Set([...step.captures.map((c) => c.name), ...outputs])];
}

/** One iteration of a request step: its result recorded under its name, its captures. */
async function iterateRequest(step: Step, name: string, at: Iterating) {
  const { walk, ctx, level } = at;
  const captured = new Map<string, unknown>();
  const input = {
    ref: walk.ref,
    step,
    scope: at.scope,
    captured,
    flowStarted: walk.started,
    inputs: at.inputs,
    label: name,
  };
  const r: StepResult = { ...await runStep(input, ctx), name };
  await recordExchanges(input, r, at);
  await record(r, level, walk, ctx);
  const stop = r.status === "passed"
    ? undefined
    : r.failure_kind === "interrupted"
    ? interrupted(ctx)
    : `step "${level.prefix}${name}" ${r.status === "error" ? "had an error" : "failed"}`;
  return { stop, values: captured };
}

/** One iteration of an include step, run with its own view of the steps so far. */
async function iterateInclude(named: Step, at: Iterating, runInclude: RunInclude) {
  const scope = { ...at.scope, steps: new Map(at.scope.steps) };
  const stop = await runInclude(named, { ...at, scope });
  return { stop, values: scope.steps.get(named.name) ?? new Map() };
}

/** An iteration not run because an earlier one (or something before the step) stopped the flow. */
async function skipIteration(named: Step, stop: string, at: Iterating): Promise<void> {
  const reason = `Skipped because ${stop.replace(/\.$/, "")}.`;
  const kind = at.ctx.signal?.aborted ? "interrupted" : "skipped";
  for (const leaf of leaves(named, at.level)) {
    const r = skipped(leaf.step, reason, since(at.walk));
    await record({ ...r, failure_kind: kind }, leaf, at.walk, at.ctx);
  }
}

/** A foreach whose list cannot be run over: an error of the step, which stops the flow. */
async function stepError(step: Step, message: string, at: Iterating): Promise<string> {
  const r = skipped(step, message, since(at.walk));
  await record({ ...r, status: "error", failure_kind: "expression" }, at.level, at.walk, at.ctx);
  return `step "${at.level.prefix}${step.name}" had an error`;
}

function interrupted(ctx: Context): string | undefined {
  return ctx.signal?.aborted ? `the run was interrupted (${reasonOf(ctx.signal)})` : undefined;
}

function since(walk: Walk): number {
  return round(performance.now() - walk.started);
}

/**
 * A flow's step loop: steps run in order; after the first that does not
 * pass, the rest are reported skipped with the reason and only cleanup steps
 * (`always: true`) run, within a grace period after an interrupt. An include
 * runs its flow's steps here too, one level down.
 *
 * @module
 */
import { render } from "../expr/template.ts";
import { ExpressionError } from "../expr/template.ts";
import { giveWayAfterGuards } from "../_util/time_guard.ts";
import { reasonOf } from "../http/request_error.ts";
import type { Step } from "../model/flow.ts";
import type { StepResult } from "../model/result.ts";
import { isSecretName } from "../secrets/mod.ts";
import { type SecretInputs, secretInputs } from "../secrets/discover.ts";
import { type Unmet, unmetCondition } from "./condition.ts";
import { CLEANUP_GRACE_MS, type Context, round, type WithAuth } from "./context.ts";
import { effectiveAuth, recordExchanges } from "./auth_steps.ts";
import { leaves, skipped } from "./skipped.ts";
import { runForeach } from "./foreach.ts";
import { runStep } from "./step.ts";
import type { Attempt } from "./attempt.ts";
import { checkInclude, Kept, ownChecks, wanted } from "./include_checks.ts";
import { evaluateOutputs, fillVars } from "./vars.ts";
import { withoutUnset } from "./skipped_outputs.ts";
import { secretMadeOf, shownValues } from "./shown.ts";
import { type Level, type Live, record, type Walk } from "./walk.ts";
import { expressionMessage } from "./expression_message.ts";

/**
 * Where a list of steps runs: its scope, the run, the flow run's walk, its secret inputs, its level.
 *
 * @example
 * ```ts
 * import type { StepList } from "./steps.ts";
 * import { makeContext } from "./make_context.ts";
 * const ctx = makeContext({ runId: "r" });
 * ctx.deadlines?.close();
 * const at: StepList = {
 *   scope: { env: () => undefined, vars: new Map(), steps: new Map(), runId: "r" },
 *   ctx,
 *   walk: { ref: { file: "f.yaml", name: "f" }, started: 0, results: [], maskedAt: [] },
 *   inputs: { literals: new Set(), vars: new Set(), env: new Set(), captures: new Set() },
 *   level: { prefix: "" },
 * };
 * if (at.level.prefix !== "") throw new Error();
 * ```
 */
export interface StepList {
  scope: Live;
  ctx: Context;
  walk: Walk;
  inputs: SecretInputs;
  level: Level;
  /** For the steps of a flow an include step checks: where the response it reads is kept. */
  keep?: Kept;
}

/**
 * Runs steps in order; returns why the rest of the flow stops, if anything
 * stopped it (`at.level.stop` when something before them did).
 *
 * @example
 * ```ts
 * import { runSteps } from "./steps.ts";
 * import { Redactor } from "../secrets/mod.ts";
 * import type { StepResult } from "../model/result.ts";
 * const walk = { ref: { file: "f.yaml", name: "f" }, started: performance.now(), results: [] as StepResult[], maskedAt: [] as number[] };
 * const ctx = { reporter: {}, redactor: new Redactor(), params: new Map() };
 * const step = { name: "s", line: 1, column: 1 };
 * const inputs = { literals: new Set<string>(), vars: new Set<string>(), env: new Set<string>(), captures: new Set<string>() };
 * // deno-lint-ignore no-explicit-any
 * const at = { scope: {} as any, ctx: ctx as any, walk, inputs, level: { prefix: "", stop: "setup failed" } };
 * // deno-lint-ignore no-explicit-any
 * const stop = await runSteps([step as any], at);
 * if (stop !== "setup failed" || walk.results[0].message !== "Skipped because setup failed.") throw new Error();
 * ```
 */
export async function runSteps(list: readonly Step[], at: StepList): Promise<string | undefined> {
  const { ctx, level, scope } = at;
  let stop = level.stop;
  for (const step of list) {
    // A step's checks may have blocked this thread on the helper: let a signal in first.
    await giveWayAfterGuards();
    stop ??= interrupted(ctx);
    if (stop && !step.always) {
      await skipStopped(step, stop, at);
      continue;
    }
    const unmet = step.when ? unmetCondition(step, scope, ctx) : undefined;
    if (unmet) {
      const why = await skipUnmet(step, unmet, at);
      stop ??= why;
      continue;
    }
    // Cleanup runs after a failure, and after an interrupt within a bounded grace period.
    const c = stop === undefined ? ctx : graced(ctx);
    const here = c === ctx ? at : { ...at, ctx: c };
    const why = step.foreach
      ? await runForeach(step, here, runInclude)
      : step.include
      ? await runInclude(step, here)
      : await runRequest(step, here);
    stop ??= why;
    if (c !== ctx) ctx.detailed = c.detailed;
  }
  return stop;
}

/** A step that sends a request: its result recorded; why the flow stops after it, if it does. */
async function runRequest(step: Step, at: StepList): Promise<string | undefined> {
  const { ctx, walk, level, scope } = at;
  const captured = new Map<string, unknown>();
  scope.steps.set(step.name, captured);
  const input = {
    ref: walk.ref,
    step,
    scope,
    captured,
    flowStarted: walk.started,
    inputs: at.inputs,
  };
  // An include step's checks read a response of its flow: it is kept for them.
  const keep = wanted(at, step.name) ? (a: Attempt) => at.keep!.offer(step.name, a) : undefined;
  const r = await runStep(input, ctx, keep);
  await recordExchanges(input, r, at);
  await record(r, level, walk, ctx);
  return r.status === "passed" ? undefined : stopAfter(r, step, level, ctx);
}

/** Why the flow stops when the run was interrupted, if it was. */
function interrupted(ctx: Context): string | undefined {
  return ctx.signal?.aborted ? `the run was interrupted (${reasonOf(ctx.signal)})` : undefined;
}

/** The run's context, with a cleanup grace period for the requests after an interrupt. */
function graced(ctx: Context): Context {
  return ctx.signal?.aborted ? { ...ctx, signal: AbortSignal.timeout(CLEANUP_GRACE_MS) } : ctx;
}

/** Why the flow stops after a step that did not pass. */
function stopAfter(r: StepResult, step: Step, level: Level, ctx: Context): string {
  if (r.failure_kind === "interrupted") return `the run was interrupted (${reasonOf(ctx.signal!)})`;
  return `step "${level.prefix}${step.name}" ${r.status === "error" ? "had an error" : "failed"}`;
}

/** Milliseconds since the flow run started, as a skipped step's start. */
function since(walk: Walk): number {
  return round(performance.now() - walk.started);
}

/** A step (or an include's steps) skipped because something before it stopped the flow. */
async function skipStopped(step: Step, stop: string, at: StepList): Promise<void> {
  const { ctx, walk } = at;
  const reason = `Skipped because ${stop.replace(/\.$/, "")}.`;
  const kind = ctx.signal?.aborted ? "interrupted" : "skipped";
  for (const leaf of leaves(step, at.level)) {
    await record(
      { ...skipped(leaf.step, reason, since(walk)), failure_kind: kind },
      leaf,
      walk,
      ctx,
    );
  }
}

/**
 * A step whose condition keeps it from running: skipped when it does not
 * hold (an include's steps with it), an error that stops the flow when it
 * cannot be told.
 */
async function skipUnmet(step: Step, unmet: Unmet, at: StepList): Promise<string | undefined> {
  const { ctx, walk, level } = at;
  if (unmet.kind === "condition") {
    for (const leaf of leaves(step, level)) {
      const r = skipped(leaf.step, unmet.message, since(walk));
      await record({ ...r, failure_kind: "condition" }, leaf, walk, ctx);
    }
    return undefined;
  }
  const r = skipped(step, unmet.message, since(walk));
  await record({ ...r, status: "error", failure_kind: "expression" }, level, walk, ctx);
  return `step "${level.prefix}${step.name}" had an error`;
}

/**
 * Runs an included flow as one step: its vars from `with` (evaluated here),
 * run parameters and its own defaults; its steps reported as
 * `<step> › <its step>`; its outputs become this step's captures.
 */
async function runInclude(step: Step, at: StepList): Promise<string | undefined> {
  const { flow, file } = step.include!;
  const { scope, ctx } = at;
  const vars = new Map<string, unknown>();
  // Its steps without an auth of their own get the include step's (its flow's), else the run's.
  const inherited = effectiveAuth(step, scope as WithAuth, ctx);
  const inner: Live & WithAuth = { ...scope, vars, steps: new Map(), inherited };
  const inputs = secretInputs(flow);
  try {
    const given = new Map(step.include!.with.map((v) => [v.name, render(v.value, scope)]));
    // A value given to a secret-named var is a secret, as a data column of that name is.
    // Made from a shown value (`pw-${steps.make.capture.id}`), it masks itself, not that value.
    let shown: string[] | undefined;
    for (const [n, value] of given) {
      if (!isSecretName(n)) continue;
      shown ??= shownValues(scope, at.inputs, (v) => ctx.redactor.has(v));
      secretMadeOf(value, shown, ctx);
    }
    fillVars(flow, vars, inner, ctx, inputs, given);
  } catch (error) {
    if (!(error instanceof ExpressionError)) throw error;
    const message = `The vars of the included flow ${file} could not be evaluated: ${
      expressionMessage(error, ctx.redactor)
    }`;
    return await includeFailed(step, message, at);
  }
  const prefix = `${at.level.prefix}${step.name} › `;
  const own = ownChecks(step);
  // The response this step checks, or the one the include around it checks, is kept for them.
  const keep = own || wanted(at, step.name)
    ? new Kept(own ? step.include!.response : undefined)
    : undefined;
  const level = { prefix, file };
  const started = performance.now();
  try {
    const stop = await runSteps(flow.steps, { ...at, scope: inner, inputs, level, keep });
    // After a failure the outputs that can be evaluated are kept, for cleanup steps to use.
    const outputs = new Map<string, unknown>();
    scope.steps.set(step.name, outputs);
    // Not those reading a capture left unset by design (skipped_outputs.ts): absent, not errors.
    const made = withoutUnset(flow.outputs ?? [], inner.steps);
    const problem = evaluateOutputs(made, inner, ctx, outputs, stop !== undefined);
    if (problem !== undefined && !stop) {
      return await includeFailed(
        step,
        `The outputs of ${file} could not be evaluated: ${problem}`,
        at,
      );
    }
    return own ? await checkInclude(step, keep!, stop, at, started) : stop;
  } finally {
    if (keep?.held && at.keep?.offer(step.name, keep.held)) keep.release();
    keep?.close();
  }
}

/** An include whose vars or outputs could not be evaluated: an error of the step. */
async function includeFailed(step: Step, message: string, at: StepList): Promise<string> {
  const r = skipped(step, message, since(at.walk));
  await record({ ...r, status: "error", failure_kind: "expression" }, at.level, at.walk, at.ctx);
  return `step "${at.level.prefix}${step.name}" had an error`;
}

/**
 * One flow run: its scope (own vars, captures and cookie jar; only the run
 * id and setup outputs are shared), its vars, its steps, a setup flow's
 * outputs, and its result, masked with every secret the flow met (raw when
 * the caller masks its outputs itself, `RunOptions.rawEvents`).
 *
 * @module
 */
import { ExpressionError, randomHex } from "../expr/template.ts";
import { CookieJar } from "../http/cookie_jar.ts";
import type { Flow } from "../model/flow.ts";
import type { FlowResult, StepResult } from "../model/result.ts";
import { secretInputs } from "../secrets/discover.ts";
import { type Context, round, type WithJar } from "./context.ts";
import { noteMasked } from "./mask_result.ts";
import { noteToldSince, saidSince } from "../secrets/said_since.ts";
import { runSteps } from "./steps.ts";
import { evaluateOutputs, fillVars } from "./vars.ts";
import { withoutSkipped, withoutUnset } from "./skipped_outputs.ts";
import type { Live, Walk } from "./walk.ts";
import { expressionMessage } from "./expression_message.ts";

/**
 * Runs one flow and reports its start and end. Never throws for failures in
 * the flow: they are results. A setup flow passes `outputs`: when it passes,
 * its outputs go there (or `"\0failed"` with why they could not be evaluated);
 * when it does not, those that can be evaluated.
 *
 * @example
 * ```ts
 * import { runOne } from "./flow.ts";
 * import { makeContext } from "./make_context.ts";
 * import { loadFlow } from "../load/load_flow.ts";
 * const { flow } = loadFlow("name: f\nsteps:\n  - name: s\n    request: {url: 'http://127.0.0.1:9/'}\n  - name: t\n    request: {url: 'http://127.0.0.1:9/'}\n", "f.yaml");
 * const ctx = makeContext({ runId: "r", timeoutMs: 2000 });
 * const result = await runOne(flow!, ctx);
 * ctx.deadlines?.close();
 * // Port 9 refuses the connection: the first step has an error, the second is skipped.
 * if (result.status !== "error" || result.steps[1].status !== "skipped") throw new Error(JSON.stringify(result));
 * ```
 */
export async function runOne(
  flow: Flow,
  ctx: Context,
  setup?: ReadonlyMap<string, unknown>,
  outputs?: Map<string, unknown>,
): Promise<FlowResult> {
  const flowResult = await runAttempt(flow, ctx, { setup, outputs });
  await ctx.reporter.onFlowEnd?.(flowResult);
  return flowResult;
}

/**
 * One run of a flow, reported as it starts but not as it ends: a flow that
 * is re-run (`rerun.ts`) ends once, after its last run. `attempt` (from 2)
 * is in every event of a re-run.
 *
 * @example
 * ```ts
 * import { runAttempt } from "./flow.ts";
 * import { makeContext } from "./make_context.ts";
 * import { loadFlow } from "../load/load_flow.ts";
 * const { flow } = loadFlow("name: f\nsteps:\n  - name: s\n    request: {url: 'http://127.0.0.1:9/'}\n", "f.yaml");
 * const starts: unknown[] = [];
 * const ctx = makeContext({ runId: "r", timeoutMs: 2000, reporter: { onFlowStart: (ref) => void starts.push(ref) } });
 * const result = await runAttempt(flow!, ctx, { attempt: 2 });
 * ctx.deadlines?.close();
 * if (result.status !== "error" || JSON.stringify(starts) !== '[{"file":"f.yaml","name":"f","attempt":2}]') throw new Error();
 * ```
 */
export async function runAttempt(
  flow: Flow,
  ctx: Context,
  { setup, outputs, attempt }: {
    setup?: ReadonlyMap<string, unknown>;
    outputs?: Map<string, unknown>;
    attempt?: number;
  },
): Promise<FlowResult> {
  const ref = attempt && attempt > 1
    ? { file: flow.file, name: flow.name, attempt }
    : { file: flow.file, name: flow.name };
  await ctx.reporter.onFlowStart?.(ref);
  const startedAt = new Date();
  const walk: Walk = { ref, started: performance.now(), results: [], maskedAt: [] };
  const scope = flowScope(flow, ctx, setup);
  const inputs = secretInputs(flow);
  let stop: string | undefined;
  try {
    fillVars(flow, scope.vars, scope, ctx, inputs);
  } catch (error) {
    if (!(error instanceof ExpressionError)) throw error;
    // A skip reason is flowrun's words in the reports: the values the expression's message
    // quotes are masked here.
    stop = `the flow's vars could not be evaluated: ${expressionMessage(error, ctx.redactor)}`;
  }
  // Every message of the steps is made from here on, with the flow's secret vars known: a short
  // secret learnt later is masked in them at every output (see said_since.ts).
  const mark = ctx.redactor.size;
  stop = await runSteps(flow.steps, { scope, ctx, walk, inputs, level: { prefix: "", stop } });
  // A setup flow hands its outputs to the run, evaluated in its own scope; one that did not pass
  // hands over those it can evaluate (plain vars, captures made before the failure): the
  // teardown gets them, to clean up what was made.
  if (outputs && flow.outputs) {
    const passed = !stop && walk.results.every((r) => r.status !== "failed");
    // Not those reading a step its condition skipped, or a capture its step left unset by
    // design (optional, when): never meant to exist (skipped_outputs.ts).
    const made = withoutUnset(withoutSkipped(flow.outputs, walk.results), scope.steps);
    const problem = evaluateOutputs(made, scope, ctx, outputs, true);
    if (passed && problem !== undefined) outputs.set("\0failed", problem);
  }
  return resultOf(flow, walk, startedAt, scope.traceId!, ctx, mark);
}

/** A flow run's scope: its own vars, captures and cookie jar (used by the steps that opt in). */
function flowScope(
  flow: Flow,
  ctx: Context,
  setup: ReadonlyMap<string, unknown> | undefined,
): Live & WithJar & { vars: Map<string, unknown> } {
  return {
    env: ctx.env,
    vars: new Map<string, unknown>(),
    steps: new Map<string, Map<string, unknown>>(),
    runId: ctx.runId,
    traceId: randomHex(32),
    setup,
    jar: new CookieJar(),
    jarOn: flow.options?.cookieJar ?? ctx.cookieJar,
  };
}

/**
 * The flow's result; a step's result may hold a value that became secret
 * later: masked again. With raw events it stays raw: each output masks it.
 */
function resultOf(
  flow: Flow,
  walk: Walk,
  startedAt: Date,
  traceId: string,
  ctx: Context,
  mark: number,
): FlowResult {
  const known = ctx.redactor.size;
  const { results, maskedAt } = walk;
  const said = ctx.rawEvents ? undefined : saidSince(ctx.redactor, mark);
  const result: FlowResult = {
    file: flow.file,
    name: flow.name,
    status: flowStatus(results),
    ...(ctx.trace ? { trace_id: traceId } : {}),
    started_at: startedAt.toISOString(),
    duration_ms: round(performance.now() - walk.started),
    steps: ctx.rawEvents
      ? results
      : results.map((r, i) => maskedAt[i] === known ? r : ctx.redactor.redactValue(r, said)),
  };
  noteToldSince(result, mark);
  if (!ctx.rawEvents) noteMasked(result, known);
  return result;
}

/**
 * A flow's status from its steps: the status of the step that stopped it;
 * `skipped` when it was interrupted or never ran; `error` when its vars could
 * not be evaluated (every step skipped, none interrupted).
 *
 * @example
 * ```ts
 * import { flowStatus } from "./flow.ts";
 * // deno-lint-ignore no-explicit-any
 * const steps: any[] = [{ status: "passed" }, { status: "failed" }, { status: "skipped", failure_kind: "skipped" }];
 * if (flowStatus(steps) !== "failed") throw new Error();
 * if (flowStatus([{ status: "skipped", failure_kind: "skipped" }] as any) !== "error") throw new Error();
 * ```
 */
export function flowStatus(steps: readonly StepResult[]): FlowResult["status"] {
  const stopper = steps.find((s) => s.status === "failed" || s.status === "error");
  if (stopper) return stopper.status;
  if (steps.some((s) => s.failure_kind === "interrupted")) return "skipped";
  // Steps skipped by their conditions are a flow that ran as written.
  return steps.every((s) => s.status === "skipped" && s.failure_kind !== "condition")
    ? "error"
    : "passed";
}

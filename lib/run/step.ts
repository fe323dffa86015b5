/**
 * The runner's middle level: one step. Its request is attempted once, or
 * polled until its `until` checks hold (bounded by the loop); the checks and
 * captures run on the last response; {@linkcode stepResult} turns all of it
 * into the step's result.
 *
 * @module
 */
import { evaluateChecks } from "../check/assert.ts";
import { capture } from "../check/capture.ts";
import { ExpressionError, type Scope } from "../expr/template.ts";
import { internalError } from "../_util/internal_error.ts";
import type { Retry, Step } from "../model/flow.ts";
import { reasonOf, RequestError } from "../http/request_error.ts";
import { pause, pollUntil } from "./poll.ts";
import { isSecretCaptureName } from "../secrets/mod.ts";
import type { FlowRef } from "../report/reporter.ts";
import type { CaptureFailure, StepResult } from "../model/result.ts";
import { type SecretInputs, secretLeaves } from "../secrets/discover.ts";
import { type Attempt, attempt } from "./attempt.ts";
import { type Context, DETAILED_FAILURES, MAX_BODY, round, SMALL_BODY } from "./context.ts";
import {
  type Evaluation,
  failedBefore,
  stepResult,
  type Timing,
  withDetails,
} from "./step_result.ts";

/**
 * Runs one step of a flow: its captured values go into `captured`.
 *
 * @example
 * ```ts
 * import { runStep } from "./step.ts";
 * import { loadFlow } from "../load/load_flow.ts";
 * import { Redactor } from "../secrets/mod.ts";
 * const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, () => Response.json({ id: 7 }));
 * const { flow } = loadFlow(`name: f\nsteps:\n  - name: s\n    request: {url: "http://127.0.0.1:${server.addr.port}"}\n    capture: {id: $.json.id}\n`, "f.yaml");
 * const ctx = { env: () => undefined, params: new Map(), runId: "r", timeoutMs: 2000, reporter: {},
 *   redactor: new Redactor(), detailed: 0, secret: () => {}, trace: false };
 * const captured = new Map();
 * const scope = { vars: new Map(), steps: new Map(), env: () => undefined, runId: "r" };
 * const inputs = { literals: [], vars: new Set(), env: new Set(), captures: new Set() };
 * // deno-lint-ignore no-explicit-any
 * const r = await runStep({ name: "f", file: "f.yaml" } as any, flow!.steps[0], scope, captured, ctx, performance.now(), inputs as any);
 * await server.shutdown();
 * if (r.status !== "passed" || captured.get("id") !== 7) throw new Error(JSON.stringify(r));
 * ```
 */
export async function runStep(
  ref: FlowRef,
  step: Step,
  scope: Scope,
  captured: Map<string, unknown>,
  ctx: Context,
  flowStarted: number,
  inputs: SecretInputs,
): Promise<StepResult> {
  const started = performance.now();
  const attemptStarts: number[] = [];
  const attemptStatuses: (number | null)[] = [];
  let sent = 0;
  let lastRequest: Attempt["request"] | undefined;
  const timing = (): Timing => ({
    start_ms: round(started - flowStarted),
    duration_ms: round(performance.now() - started),
    ...(step.loop ? { attempt_starts_ms: attemptStarts, attempt_statuses: attemptStatuses } : {}),
  });
  const retry = step.options?.retry;
  // One attempt of the poll loop: the request, sent again after a network error or a listed
  // status while retries last, each wait twice the one before.
  const once = async () => {
    for (let n = 0;; n++) {
      attemptStarts.push(round(performance.now() - started));
      const a = await attempt(step, scope, ctx, ref, sent + 1);
      attemptStatuses.push(a.response?.status ?? null);
      sent++;
      lastRequest = a.request;
      if (!retry || n >= retry.count || ctx.signal?.aborted || !retryable(a, retry)) return a;
      await pause(retry.delayMs * 2 ** n, ctx.signal);
    }
  };
  // A body too large for memory waits in a temporary file until the step's result is made.
  let last: Attempt | undefined;
  try {
    if (step.options?.delayMs) await pause(step.options.delayMs, ctx.signal);
    const outcome = step.loop
      ? await pollUntil(once, (a) => a.response !== undefined && a.until.every((r) => r.passed), {
        ...step.loop,
        signal: ctx.signal,
      })
      : { last: await once(), satisfied: true, attempts: 1 };
    last = outcome.last;
    const { response } = outcome.last;
    const interrupted = ctx.signal?.aborted && (!response || !outcome.satisfied)
      ? reasonOf(ctx.signal)
      : undefined;
    const evaluation = response && interrupted === undefined
      ? evaluate(step, outcome.last, scope, captured, ctx, inputs)
      : undefined;
    const result = stepResult(
      step,
      timing(),
      { ...outcome, attempts: sent },
      evaluation,
      interrupted,
    );
    if (interrupted !== undefined) return result;
    const verbose = ctx.verbose ?? 0;
    if (result.status === "passed") {
      // -v shows every exchange: a passing step keeps a body's first screenful, -vv all of it.
      if (verbose === 0) return result;
      return withDetails(
        result,
        outcome.last,
        verbose > 1 ? Infinity : 2 * SMALL_BODY,
        ctx.redactor,
      );
    }
    // A step that did not pass keeps the request and response (bodies masked, then cut: 64 KiB
    // for the run's first 100 such steps, then 2 KiB, so memory stays flat however many fail).
    const max = verbose > 1 ? Infinity : ctx.detailed++ < DETAILED_FAILURES ? MAX_BODY : SMALL_BODY;
    return withDetails(result, outcome.last, max, ctx.redactor, ctx.secretVariables);
  } catch (error) {
    if (error instanceof ExpressionError) {
      return failedBefore(step, timing(), "error", "expression", error.message, sent, lastRequest);
    }
    if (error instanceof RequestError) {
      return failedBefore(step, timing(), "error", "request", error.message, sent, lastRequest);
    }
    // Whatever else one step meets fails that step: the run, its other flows and reports go on.
    const message = ctx.redactor.redact(internalError("running the step", error));
    return failedBefore(step, timing(), "error", "request", message, sent, lastRequest);
  } finally {
    last?.response?.close();
  }
}

/** Whether an attempt's outcome is one its step retries: a network error or a listed status. */
function retryable(a: Attempt, retry: Retry): boolean {
  if (a.response) return retry.on.includes(a.response.status);
  const code = a.error?.code;
  return (code === "network" || code === "timeout") && retry.on.includes("network");
}

/** The checks and captures on the last response; captured values go into `captured`. */
function evaluate(
  step: Step,
  last: Attempt,
  scope: Scope,
  captured: Map<string, unknown>,
  ctx: Context,
  inputs: SecretInputs,
): Evaluation {
  const response = last.response!;
  const assertions = [
    ...last.until,
    ...evaluateChecks(step.assert, response, scope, "assert", ctx.redactor, last.request),
  ];
  const names: string[] = [];
  const problems: CaptureFailure[] = [];
  for (const c of step.captures) {
    let got: ReturnType<typeof capture>;
    try {
      got = capture(response, c.from, scope);
      // A cookie's value is a session credential whatever the capture is called.
      if (
        got.found && (c.from.kind === "cookie" || isSecretCaptureName(c.name) ||
          inputs.captures.has(`${step.name}\0${c.name}`))
      ) {
        secretLeaves(got.value, ctx.secret);
      }
    } catch (error) {
      // One capture that cannot be taken fails its step, as one that finds nothing does.
      got = { found: false, why: ctx.redactor.redact(internalError("capturing", error)) };
    }
    if (!got.found) {
      problems.push({ name: c.name, message: got.why, line: c.line, column: c.column });
      continue;
    }
    captured.set(c.name, got.value);
    names.push(c.name);
  }
  return { assertions, captured: names, problems };
}

/**
 * One attempt of a step, whatever its kind: the registry gives the step's
 * kind and spec, the kind runs it through {@linkcode StepCall}. An HTTP
 * step's kind sends its request through the runner's own exchange
 * (`attempt.ts`, via `send`), which is the attempt, whole. Another kind's
 * outcome becomes an {@linkcode Attempt} like an HTTP one's — a request
 * line, a response whose status, headers and JSON body the checks,
 * captures, polling, retries and reports read as they read an HTTP
 * response's. Secrets are registered on both sides as for HTTP: by where a
 * value was sent or received.
 *
 * @module
 */
import { evaluateChecks } from "../check/assert.ts";
import type { AuthHandler } from "../http/auth.ts";
import type { ResolvedRequest } from "../http/request.ts";
import { RequestError } from "../http/request_error.ts";
import { requestMessage } from "./request_message.ts";
import { ReceivedResponse } from "../http/response.ts";
import { type KindFailure, type KindOutcome, stepCall, type StepKind } from "../kinds/mod.ts";
import type { Masking } from "../model/masking.ts";
import { tell } from "../model/told.ts";
import type { AssertionResult } from "../model/result.ts";
import { secretsInRequest, secretsInResponse } from "../secrets/discover.ts";
import type { Attempt } from "./attempt.ts";
import { StepCall } from "./kind_call.ts";
import { Wire } from "./exchange.ts";
import { type Context, round, type StepInput } from "./context.ts";

/** Reasons a kind may give for no answer, as the runner's request errors name them. */
const REASONS = new Set(["network", "timeout", "bad-url", "interrupted", "body-too-large"]);

/**
 * Runs a step once, through its kind, as attempt number `number`.
 *
 * @example
 * ```ts
 * import { kindAttempt } from "./kind_attempt.ts";
 * import { loadFlow } from "../load/load_flow.ts";
 * import { makeContext } from "./make_context.ts";
 * const { flow } = loadFlow('name: f\nsteps:\n  - name: s\n    request: {url: "http://127.0.0.1:9/"}\n', "f.yaml");
 * const scope = { vars: new Map(), steps: new Map(), env: () => undefined, runId: "r" };
 * const inputs = { literals: new Set<string>(), vars: new Set<string>(), env: new Set<string>(), captures: new Set<string>() };
 * const input = { ref: { name: "f", file: "f.yaml" }, step: flow!.steps[0], scope, captured: new Map(), flowStarted: 0, inputs };
 * const a = await kindAttempt(input, makeContext({ runId: "r", timeoutMs: 2000 }), 1);
 * if (a.response || !a.error || a.kind !== undefined) throw new Error("port 9 should refuse the connection");
 * ```
 */
export async function kindAttempt(
  input: StepInput,
  ctx: Context,
  number: number,
  auth?: AuthHandler,
): Promise<Attempt> {
  const { kind, spec } = stepCall(input.step);
  const call = new StepCall(input, ctx, number, auth);
  await call.ready();
  const sent = performance.now();
  const outcome = await kind.attempt(spec, call);
  // A request sent through the runner's HTTP exchange is reported there already.
  const exchange = call.exchange(outcome);
  if (exchange) return exchange;
  if (!("request" in outcome)) {
    throw new Error(`The ${kind.key} step kind answered with an exchange it did not send.`);
  }
  return await reported(input, ctx, number, { kind, outcome, sent });
}

/** A kind's own outcome as an attempt: its secrets registered, the reporters told. */
async function reported(
  input: StepInput,
  ctx: Context,
  number: number,
  { kind, outcome, sent }: { kind: StepKind; outcome: KindOutcome; sent: number },
): Promise<Attempt> {
  const { step } = input;
  const request: ResolvedRequest = { ...outcome.request, headers: [...outcome.request.headers] };
  secretsInRequest(request, ctx.secret, input.inputs.written);
  const info = {
    step: input.label ?? step.name,
    attempt: number,
    method: request.method,
    url: ctx.rawEvents ? request.url : ctx.redactor.redact(request.url),
  };
  const { onRequest, onAttempt } = ctx.reporter;
  if (onRequest) await onRequest.call(ctx.reporter, input.ref, info);
  // The HAR records a kind's call as its request line and the answer the checks read.
  const wire = ctx.reporter.onExchange
    ? new Wire(ctx, input.ref, input.label ?? step.name, number, request, sent)
    : undefined;
  const duration_ms = round(performance.now() - sent);
  if (!outcome.response) {
    const error = noAnswer(outcome.error, kind.what);
    // Masked here, raw events too, as attempt.ts does: the reports keep it as flowrun's.
    const message = requestMessage(error, ctx.redactor);
    await wire?.failed(message);
    if (onAttempt) {
      await onAttempt.call(ctx.reporter, input.ref, { ...info, error: message, duration_ms });
    }
    return { request, error, until: [], kind: kind.key };
  }
  const { status, headers, body } = outcome.response;
  const response = new ReceivedResponse(status, headers, body);
  response.url = request.url;
  response.durationMs = duration_ms;
  secretsInResponse(response, ctx.secret, input.inputs.clear, request.url);
  await wire?.answered(response);
  const until = step.loop
    ? evaluateChecks(step.loop.until, response, input.scope, "until", ctx.redactor, request)
    : [];
  if (onAttempt) {
    const until_met = step.loop ? until.every((r) => r.passed) : undefined;
    await onAttempt.call(ctx.reporter, input.ref, { ...info, status, duration_ms, until_met });
  }
  const verdicts = (outcome.failures ?? []).map((f) => verdict(f, step, ctx.redactor));
  return { request, response, until, kind: kind.key, ...(verdicts.length > 0 ? { verdicts } : {}) };
}

/** Why a kind's call got no answer, as the runner's request error (retried like HTTP's). */
function noAnswer(error: KindOutcome["error"], what: string): RequestError {
  const reason = error?.reason ?? "network";
  const code = (REASONS.has(reason) ? reason : "network") as RequestError["code"];
  return new RequestError(code, error?.message ?? `${what} got no answer.`);
}

/**
 * A kind's failed verdict as a failed check of the step, placed at the step. Masked here, as a
 * check's message is where it is made: the reports keep it as flowrun's words, masked by long
 * secrets only, so a short secret its values quote (a URL) would be written in clear.
 */
function verdict(
  failure: KindFailure,
  at: { line: number; column: number },
  display: Pick<Masking, "redact">,
): AssertionResult {
  const { message } = failure;
  return {
    phase: "assert",
    path: failure.check,
    operator: "holds",
    expected: true,
    actual: false,
    found: true,
    passed: false,
    message: typeof message === "string" ? display.redact(message) : tell(message, display),
    line: at.line,
    column: at.column,
  };
}

/**
 * The runner's middle level: one step. Its request is attempted once, or
 * polled until its `until` checks hold (bounded by the loop), each attempt
 * retried after a network error or a listed status while retries last; the
 * checks and captures run on the last response; {@linkcode stepResult} turns
 * all of it into the step's result.
 *
 * @module
 */
import { evaluateChecks } from "../check/assert.ts";
import { capture, type Captured, notFound } from "../check/capture.ts";
import { captureWhen, withOwnCaptures } from "../check/capture_when.ts";
import { ExpressionError } from "../expr/template.ts";
import { internalTold } from "../model/internal_told.ts";
import { tell } from "../model/told.ts";
import type { Retry } from "../model/flow.ts";
import { reasonOf, RequestError } from "../http/request_error.ts";
import { pause, type PollOutcome, pollUntil } from "./poll.ts";
import { isSecretCaptureName, isSecretHeader } from "../secrets/mod.ts";
import type { CaptureFailure, StepResult } from "../model/result.ts";
import { responseLeaves, secretLeaves } from "../secrets/discover.ts";
import { inCookieNamesOnly } from "../secrets/set_cookie.ts";
import type { Attempt } from "./attempt.ts";
import { kindAttempt } from "./kind_attempt.ts";
import { AuthError, type AuthHandler } from "../http/auth.ts";
import { stepAuth } from "./auth_steps.ts";
import { curlVia } from "./transport.ts";
import { requestMessage } from "./request_message.ts";
import { unfoundMessage } from "./capture_message.ts";
import {
  type Context,
  keepsDetails,
  MAX_BODY,
  round,
  SMALL_BODY,
  type StepInput,
} from "./context.ts";
import {
  type Evaluation,
  failedBefore,
  stepResult,
  type Timing,
  withDetails,
} from "./step_result.ts";
import { expressionMessage } from "./expression_message.ts";

/** A step's attempts so far: when it started, how many were sent, the last request. */
interface Tries {
  started: number;
  sent: number;
  lastRequest?: Attempt["request"];
  /** The step's auth handler, made once for all its attempts. */
  auth?: AuthHandler;
  /** Start of each attempt and its status: kept for polling steps only, which report them. */
  starts?: number[];
  statuses?: (number | null)[];
}

/**
 * Runs one step of a flow: its captured values go into `input.captured`.
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
 * const inputs = { literals: new Set<string>(), vars: new Set<string>(), env: new Set<string>(), captures: new Set<string>() };
 * const ref = { name: "f", file: "f.yaml" };
 * const r = await runStep({ ref, step: flow!.steps[0], scope, captured, flowStarted: performance.now(), inputs }, ctx);
 * await server.shutdown();
 * if (r.status !== "passed" || captured.get("id") !== 7) throw new Error(JSON.stringify(r));
 * ```
 */
export async function runStep(
  input: StepInput,
  ctx: Context,
  keep?: (last: Attempt) => boolean,
): Promise<StepResult> {
  const { step } = input;
  // One shape whether or not the step polls, so the functions reading it stay monomorphic.
  const tries: Tries = {
    started: performance.now(),
    sent: 0,
    lastRequest: undefined,
    starts: step.loop ? [] : undefined,
    statuses: step.loop ? [] : undefined,
    auth: undefined,
  };
  // A body too large for memory waits in a temporary file until the step's result is made.
  let last: Attempt | undefined;
  try {
    tries.auth = await stepAuth(input, ctx);
    if (step.options?.delayMs) await pause(step.options.delayMs, ctx.signal);
    const outcome = step.loop
      ? await pollUntil(() => retried(input, tries, ctx), untilMet, {
        ...step.loop,
        signal: ctx.signal,
      })
      : { last: await retried(input, tries, ctx), satisfied: true, attempts: 1 };
    last = outcome.last;
    return finished(input, tries, outcome, ctx);
  } catch (error) {
    return failed(input, tries, error, ctx);
  } finally {
    // An include step's own checks may read this response after its flow ends: then it is theirs.
    if (!(last?.response && keep?.(last))) last?.response?.close();
  }
}

/**
 * The result of checks and captures that are not the step's own request's:
 * an include step's `assert` and `capture` on a response its included flow
 * received (`last`, kept after its step ended), evaluated in `input.scope`.
 *
 * @example
 * ```ts
 * import { checkKept } from "./step.ts";
 * import { loadFlow } from "../load/load_flow.ts";
 * import { ReceivedResponse } from "../http/response.ts";
 * import { Redactor } from "../secrets/mod.ts";
 * const { flow } = loadFlow('name: f\nsteps:\n  - name: s\n    request: {url: "http://x.test"}\n    assert: {status: 201}\n', "f.yaml");
 * const ctx = { env: () => undefined, params: new Map(), runId: "r", timeoutMs: 2000, reporter: {},
 *   redactor: new Redactor(), detailed: 0, secret: () => {}, trace: false };
 * const scope = { vars: new Map(), steps: new Map(), env: () => undefined, runId: "r" };
 * const inputs = { literals: new Set<string>(), vars: new Set<string>(), env: new Set<string>(), captures: new Set<string>() };
 * const input = { ref: { name: "f", file: "f.yaml" }, step: flow!.steps[0], scope, captured: new Map(), flowStarted: 0, inputs };
 * const last = { request: { method: "GET", url: "http://x.test/", headers: [] }, response: new ReceivedResponse(200, {}, ""), until: [] };
 * // deno-lint-ignore no-explicit-any
 * const r = checkKept(input, last as any, ctx as any, performance.now());
 * if (r.status !== "failed" || r.assertions?.length !== 1) throw new Error(JSON.stringify(r));
 * ```
 */
export function checkKept(
  input: StepInput,
  last: Attempt,
  ctx: Context,
  started: number,
): StepResult {
  // The include step sent nothing itself: its result counts no attempt of its own.
  const tries: Tries = { started, sent: 0, lastRequest: last.request };
  // A polling step's "until" results are that step's, not these checks'.
  const own = { ...last, until: [] };
  return finished(input, tries, { last: own, satisfied: true, attempts: 1 }, ctx);
}

/** Whether a polling step's attempt got a response that meets its `until` checks. */
function untilMet(a: Attempt): boolean {
  return a.response !== undefined && a.until.every((r) => r.passed);
}

/**
 * One attempt of the poll loop: the request, sent again after a network error
 * or a listed status while retries last, each wait twice the one before.
 */
async function retried(input: StepInput, tries: Tries, ctx: Context): Promise<Attempt> {
  const retry = input.step.options?.retry;
  // Fresh credentials after a refusal (an OAuth2 401, a Digest challenge): once per attempt.
  let reauthorized = false;
  for (let n = 0;; n++) {
    tries.starts?.push(round(performance.now() - tries.started));
    // Every step, HTTP's too, runs through its kind (lib/kinds/mod.ts).
    const a = await kindAttempt(input, ctx, tries.sent + 1, tries.auth);
    tries.statuses?.push(a.response?.status ?? null);
    tries.sent++;
    tries.lastRequest = a.request;
    if (!reauthorized && a.response && await tries.auth?.retry?.(a.response, a.request)) {
      reauthorized = true;
      a.response.close();
      n--;
      continue;
    }
    if (reauthorized && a.response) await resent(tries.auth, a);
    reauthorized = false;
    if (!retry || n >= retry.count || ctx.signal?.aborted || !retryable(a, retry)) return a;
    await pause(retry.delayMs * 2 ** n, ctx.signal);
  }
}

/** The auth handler's word on the answer to its fresh credentials; a refusal ends the step. */
async function resent(auth: AuthHandler | undefined, a: Attempt): Promise<void> {
  try {
    await auth?.resent?.(a.response!, a.request);
  } catch (error) {
    a.response!.close();
    throw error;
  }
}

/** Whether an attempt's outcome is one its step retries: a network error or a listed status. */
function retryable(a: Attempt, retry: Retry): boolean {
  if (a.response) return retry.on.includes(a.response.status);
  const code = a.error?.code;
  return (code === "network" || code === "timeout") && retry.on.includes("network");
}

/** When the step ran, relative to its flow and to itself. */
function timing(input: StepInput, tries: Tries): Timing {
  return {
    start_ms: round(tries.started - input.flowStarted),
    duration_ms: round(performance.now() - tries.started),
    ...(tries.starts ? { attempt_starts_ms: tries.starts, attempt_statuses: tries.statuses } : {}),
  };
}

/** The step's result once its attempts ended, with as much of the exchange as it keeps. */
function finished(
  input: StepInput,
  tries: Tries,
  outcome: PollOutcome<Attempt>,
  ctx: Context,
): StepResult {
  const { last } = outcome;
  const interrupted = ctx.signal?.aborted && (!last.response || !outcome.satisfied)
    ? reasonOf(ctx.signal)
    : undefined;
  const evaluation = last.response && interrupted === undefined
    ? evaluate(input, last, ctx)
    : undefined;
  outcome.attempts = tries.sent;
  const result = stepResult(
    input.step,
    timing(input, tries),
    outcome,
    evaluation,
    interrupted,
    ctx.redactor,
  );
  const note = tries.auth?.note?.();
  if (note) result.note = note;
  if (interrupted !== undefined) return result;
  const verbose = ctx.verbose ?? 0;
  if (result.status === "passed") {
    // -v shows every exchange: a passing step keeps a body's first screenful, -vv all of it.
    if (verbose === 0) return result;
    return withDetails(result, last, verbose > 1 ? Infinity : 2 * SMALL_BODY, ctx.redactor);
  }
  // A step that did not pass keeps the request and response (bodies masked, then cut: 64 KiB
  // for the run's first 100 such steps, then 2 KiB, so memory stays flat however many fail).
  const max = verbose > 1 ? Infinity : keepsDetails(ctx) ? MAX_BODY : SMALL_BODY;
  const via = curlVia(input.step.options, ctx);
  return withDetails(result, last, max, ctx.redactor, ctx.secretVariables, via);
}

/** A step that ended with an exception: an expression, a request, or anything else it met. */
function failed(input: StepInput, tries: Tries, error: unknown, ctx: Context): StepResult {
  const { step } = input;
  const at = timing(input, tries);
  // The interrupt met the step while its auth worked (a token request, a device code's polling).
  if (ctx.signal?.aborted && (error instanceof AuthError || error instanceof RequestError)) {
    const message = `Interrupted (${reasonOf(ctx.signal)}) before the step finished.`;
    return failedBefore(step, at, "skipped", "interrupted", message, tries.sent, tries.lastRequest);
  }
  if (error instanceof ExpressionError) {
    // Masked here, value by value: the reports keep an expression's message as flowrun's words.
    const message = expressionMessage(error, ctx.redactor);
    return failedBefore(step, at, "error", "expression", message, tries.sent, tries.lastRequest);
  }
  // Whatever else one step meets fails that step: the run, its other flows and reports go on.
  // Masked here (a request's values, an auth error whole, an unforeseen error's text as a value):
  // the reports keep it as flowrun's words.
  const message = error instanceof RequestError || error instanceof AuthError
    ? requestMessage(error, ctx.redactor)
    : tell(internalTold("running the step", error), ctx.redactor);
  return failedBefore(step, at, "error", "request", message, tries.sent, tries.lastRequest);
}

/**
 * Whether a capture holds what a server issued as a secret: a cookie's value, a capture named like
 * a secret, a secret header's part; not a piece of a cookie's name (Syncthing's
 * `CSRF-Token-<device>`: the device's id, which its answers hold in the clear), nor a claim of a
 * JWT (its payload is readable by anyone who holds it).
 */
function issuedSecret(
  c: StepInput["step"]["captures"][number],
  value: unknown,
  setCookies: readonly string[],
): boolean {
  // A JWT's claim (`claim: sub`) is what its token states in the clear, an id; the token is the secret.
  if (c.from.claim !== undefined && !isSecretCaptureName(c.name)) return false;
  if (c.from.kind === "cookie" || isSecretCaptureName(c.name)) return true;
  if (c.from.kind !== "header" || !isSecretHeader(c.from.name)) return false;
  return !(c.from.name === "set-cookie" && inCookieNamesOnly(value, setCookies));
}

/** Whether the response's text holds a value masked in every output (a token, a password). */
function holdsSecret(response: { text: string }, ctx: Context): boolean {
  return ctx.redactor.redact(response.text) !== response.text;
}

/** The checks and captures on the last response; captured values go into `input.captured`. */
function evaluate(input: StepInput, last: Attempt, ctx: Context): Evaluation {
  const { step, scope } = input;
  const response = last.response!;
  const assertions = [
    ...last.until,
    ...last.verdicts ?? [],
    ...evaluateChecks(step.assert, response, scope, "assert", ctx.redactor, last.request),
  ];
  const names: string[] = [];
  const unfound: { c: StepInput["step"]["captures"][number]; got: Captured }[] = [];
  // A capture's `when` and `otherwise` may read this step's captures above it.
  const own = withOwnCaptures(scope, step.name, input.captured);
  for (const c of step.captures) {
    let got: Captured;
    try {
      const chosen = captureWhen(response, c.from, own, ctx.redactor);
      // A capture whose condition does not hold, with nothing earlier to keep, is left unset.
      if (chosen === "unset") continue;
      got = chosen === "read" ? capture(response, c.from, scope) : chosen;
      // What a later step sends in a secret place is secret, whatever it is. A cookie's value, a
      // part of a secret header (a regex's group of x-auth-token) and a capture named like a
      // secret are so when they are what a server issues: not its words or times around it.
      if (got.found && input.inputs.captures.has(`${step.name}\0${c.name}`)) {
        secretLeaves(got.value, ctx.secret);
      } else if (got.found && issuedSecret(c, got.value, response.setCookies)) {
        responseLeaves(got.value, ctx.secret, input.inputs.clear);
      } else if (got.found && c.from.kind === "body" && holdsSecret(response, ctx)) {
        // The base64 of an answer that holds a secret is that secret in other letters.
        ctx.secret(got.value as string);
      }
    } catch (error) {
      // One capture that cannot be taken fails its step, as one that finds nothing does.
      // Its text is a value, masked where the step's result is made; the words are flowrun's.
      got = notFound(internalTold("capturing", error));
    }
    if (!got.found) {
      // An optional capture that found nothing stays unset: the steps that read it are skipped.
      if (!c.from.optional) unfound.push({ c, got });
      continue;
    }
    input.captured.set(c.name, got.value);
    names.push(c.name);
  }
  // Told once every capture of the step is taken, with the secrets they registered: each value
  // a reason quotes is masked here, and the reports keep the rest as flowrun's words.
  const problems: CaptureFailure[] = unfound.map(({ c, got }) => ({
    name: c.name,
    message: unfoundMessage(got, ctx.redactor),
    line: c.line,
    column: c.column,
  }));
  return { assertions, captured: names, problems };
}

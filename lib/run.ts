/**
 * Running: loaded flows → run result. Steps of a flow run in order; the first
 * step that does not pass stops its flow and the rest are reported skipped
 * with the reason. A flow's failure never stops other flows. Each flow run has
 * its own vars and captures; only the run id is shared.
 *
 * @module
 */
import { capture } from "./capture.ts";
import { evaluateChecks } from "./assert.ts";
import { ExpressionError, randomHex, render, type Scope } from "./expr.ts";
import type { Flow, Step } from "./flow.ts";
import { reasonOf, RequestError, type ResolvedRequest, resolveRequest, send } from "./http.ts";
import { pollUntil } from "./poll.ts";
import { isSecretCaptureName, isSecretName, Redactor } from "./redact.ts";
import {
  type SecretInputs,
  secretInputs,
  secretLeaves,
  secretsInRequest,
  secretsInResponse,
} from "./secrets/discover.ts";
import type { FlowRef, Reporter } from "./report/reporter.ts";
import type { ReceivedResponse } from "./response.ts";
import {
  type AssertionResult,
  type FlowResult,
  type RunResult,
  type StepResult,
  totalsOf,
} from "./result.ts";
import { VERSION } from "./version.ts";

/** Options of a run. */
export interface RunOptions {
  /** Reads environment variables (default: none are set). */
  env?: (name: string) => string | undefined;
  /** Run parameters (`--var`): override flow vars of the same name and add new ones. */
  params?: ReadonlyMap<string, string>;
  /** The run id behind `${RUN_ID}`; generated when absent. */
  runId?: string;
  /** Per-request timeout in milliseconds (default 30000). */
  timeoutMs?: number;
  /**
   * The largest response body read, decompressed, in bytes (default 10 MiB):
   * a larger one fails its step with `body-too-large`, and memory stays
   * bounded by the cap × `jobs`.
   */
  maxBodyBytes?: number;
  /** Flows run at once (default: the number of CPUs); steps inside a flow stay sequential. */
  jobs?: number;
  /** After the first flow that does not pass, start no new flows; the rest are reported skipped. */
  failFast?: boolean;
  /**
   * Interrupts the run: no new requests are sent, requests in flight are
   * abandoned, and unfinished steps are reported skipped as `interrupted`.
   * Abort it with the signal's name as reason (`controller.abort("SIGINT")`).
   */
  signal?: AbortSignal;
  /**
   * The run's secrets. Every result and event the run reports has been
   * masked by it, and every value shortened for a message was masked first.
   * The runner adds what it meets before anything that may contain it is
   * reported: values of secret-named environment variables it reads and of
   * secret-named or {@linkcode RunOptions.secrets} parameters; values sent in
   * secret places (secret headers, cookies, URL credentials, secret-named
   * query parameters and body fields), and whatever they came from (a var, a
   * capture); values captured under secret names, whatever their type;
   * cookies a server sets, secret response headers, and values under
   * secret-named keys of response bodies. Pass the one the CLI masks its
   * outputs with; default: a new one.
   */
  redactor?: Redactor;
  /** Names of run parameters and environment variables that are secret whatever their name (`--secret`). */
  secrets?: readonly string[];
  /** Called with every value registered as secret (after {@linkcode RunOptions.redactor} has it). */
  onSecret?: (value: string) => void;
  /**
   * Sends a W3C `traceparent` on every request that does not set its own:
   * the flow run's trace id (also `${TRACE_ID}`), a fresh span id per
   * request, the sampled flag. Trace and span ids go into the results.
   */
  trace?: boolean;
  /** Receives the run's events (console, reports, log). */
  reporter?: Reporter;
}

/**
 * The default per-request timeout in milliseconds.
 *
 * @example
 * ```ts
 * import { DEFAULT_TIMEOUT_MS } from "./run.ts";
 * if (DEFAULT_TIMEOUT_MS !== 30_000) throw new Error();
 * ```
 */
export const DEFAULT_TIMEOUT_MS = 30_000;

const EXCERPT = 300;
/** How much of each body a step that did not pass keeps, while the run's budget lasts. */
const MAX_BODY = 64 * 1024;
/**
 * How many steps that did not pass keep bodies of up to {@linkcode MAX_BODY};
 * later ones keep {@linkcode SMALL_BODY}, so a run where thousands of steps
 * fail against a large error page keeps memory and reports flat.
 */
const DETAILED_FAILURES = 100;
const SMALL_BODY = 2 * 1024;

/**
 * A fresh run id: UTC time to the second plus random hex, readable and safe
 * in URLs, file names and test data (`user-${RUN_ID}`).
 *
 * @example
 * ```ts
 * import { newRunId } from "./run.ts";
 * if (!/^\d{8}-\d{6}-[0-9a-f]{6}$/.test(newRunId(new Date()))) throw new Error();
 * ```
 */
export function newRunId(now: Date = new Date()): string {
  const stamp = now.toISOString().replace(/[-:]/g, "").replace("T", "-").slice(0, 15);
  const random = crypto.getRandomValues(new Uint8Array(3));
  return `${stamp}-${[...random].map((b) => b.toString(16).padStart(2, "0")).join("")}`;
}

const round = (ms: number) => Math.round(ms * 10) / 10;

/** The trace and parent span ids of a W3C traceparent header, when it is well formed. */
function traceContext(
  traceparent: string | undefined,
): { trace_id: string; span_id: string } | undefined {
  const match = traceparent &&
    /^[0-9a-f]{2}-([0-9a-f]{32})-([0-9a-f]{16})-[0-9a-f]{2}$/.exec(traceparent.trim());
  return match ? { trace_id: match[1], span_id: match[2] } : undefined;
}

interface Context {
  env: (name: string) => string | undefined;
  params: ReadonlyMap<string, string>;
  runId: string;
  timeoutMs: number;
  maxBodyBytes?: number;
  reporter: Reporter;
  signal?: AbortSignal;
  redactor: Redactor;
  /** How many steps that did not pass have kept their details so far (see DETAILED_FAILURES). */
  detailed: number;
  /** Registers a secret value with the redactor (and tells `onSecret`). */
  secret: (value: string) => void;
  trace: boolean;
}

/** One request attempt: a response, or why there was none. */
interface Attempt {
  request: ResolvedRequest;
  response?: ReceivedResponse;
  error?: RequestError;
  until: AssertionResult[];
}

/** A step result before anything happened; the runner fills it in. */
function emptyResult(step: Step, start_ms = 0): StepResult {
  return {
    name: step.name,
    status: "passed",
    duration_ms: 0,
    start_ms,
    attempts: 0,
    line: step.line,
    column: step.column,
    request: null,
    response: null,
    assertions: [],
    captures: [],
  };
}

function skipped(step: Step, reason: string, start_ms = 0): StepResult {
  return {
    ...emptyResult(step, start_ms),
    status: "skipped",
    message: reason,
    failure_kind: "skipped",
  };
}

async function runStep(
  ref: FlowRef,
  step: Step,
  scope: Scope,
  captured: Map<string, unknown>,
  ctx: Context,
  flowStarted: number,
  inputs: SecretInputs,
): Promise<StepResult> {
  const started = performance.now();
  const result = emptyResult(step, round(started - flowStarted));
  const attemptStarts: number[] = [];
  if (step.loop) result.attempt_starts_ms = attemptStarts;
  const finish = (
    status: StepResult["status"],
    kind?: StepResult["failure_kind"],
    message?: string,
  ) => {
    result.status = status;
    if (kind) result.failure_kind = kind;
    if (message) result.message = message;
    result.duration_ms = round(performance.now() - started);
    return result;
  };
  try {
    const attempt = async (): Promise<Attempt> => {
      attemptStarts.push(round(performance.now() - started));
      const request = resolveRequest(step.request, scope);
      secretsInRequest(request, ctx.secret);
      let traceparent = request.headers.find(([name]) => name.toLowerCase() === "traceparent")?.[1];
      if (traceparent === undefined && ctx.trace) {
        traceparent = `00-${scope.traceId}-${randomHex(16)}-01`;
        request.headers.push(["traceparent", traceparent]);
      }
      const context = traceContext(traceparent);
      if (context) result.trace = context;
      result.request = { method: request.method, url: request.url };
      const info = {
        step: step.name,
        attempt: ++result.attempts,
        method: request.method,
        url: ctx.redactor.redact(request.url),
        ...context,
      };
      await ctx.reporter.onRequest?.(ref, info);
      const sent = performance.now();
      try {
        const response = await send(request, {
          timeoutMs: ctx.timeoutMs,
          maxBodyBytes: ctx.maxBodyBytes,
          signal: ctx.signal,
        });
        secretsInResponse(response, ctx.secret);
        const duration_ms = round(performance.now() - sent);
        const until = step.loop
          ? evaluateChecks(step.loop.until, response, scope, "until", ctx.redactor)
          : [];
        const until_met = step.loop ? until.every((r) => r.passed) : undefined;
        await ctx.reporter.onAttempt?.(ref, {
          ...info,
          status: response.status,
          duration_ms,
          until_met,
        });
        return { request, response, until };
      } catch (error) {
        if (!(error instanceof RequestError)) throw error;
        const duration_ms = round(performance.now() - sent);
        await ctx.reporter.onAttempt?.(ref, {
          ...info,
          error: ctx.redactor.redact(error.message),
          duration_ms,
        });
        return { request, error, until: [] };
      }
    };
    const outcome = step.loop
      ? await pollUntil(
        attempt,
        (a) => a.response !== undefined && a.until.every((r) => r.passed),
        { ...step.loop, signal: ctx.signal },
      )
      : { last: await attempt(), satisfied: true, attempts: 1 };
    const { request, response, error } = outcome.last;
    // A step that did not pass keeps what a person needs to see why: the request and
    // response (bodies masked, then cut: 64 KiB for the run's first 100 such steps, then
    // 2 KiB, so memory stays flat however many fail). Passing steps stay compact.
    const keepDetails = () => {
      const max = ctx.detailed++ < DETAILED_FAILURES ? MAX_BODY : SMALL_BODY;
      const sent = Object.fromEntries(request.headers);
      result.request = {
        method: request.method,
        url: request.url,
        headers: sent,
        ...(request.body === undefined
          ? {}
          : { body: cutBody(request.body, ctx.redactor, max).text }),
      };
      if (response && result.response) {
        result.response.headers = response.headers;
        const body = cutBody(response.text, ctx.redactor, max);
        result.response.body = body.text;
        if (body.cut > 0) result.response.body_truncated = body.cut;
      }
    };
    if (ctx.signal?.aborted && (!response || !outcome.satisfied)) {
      return finish(
        "skipped",
        "interrupted",
        `Interrupted (${reasonOf(ctx.signal)}) before the step finished.`,
      );
    }
    if (!response) {
      keepDetails();
      const tries = result.attempts > 1 ? ` (after ${result.attempts} attempts)` : "";
      return finish("error", "request", `${error!.message.replace(/\.$/, "")}${tries}.`);
    }
    const failing = (rs: AssertionResult[]) => rs.filter((r) => !r.passed);
    result.response = { status: response.status, content_type: response.contentType };
    result.assertions = [
      ...outcome.last.until,
      ...evaluateChecks(step.assert, response, scope, "assert", ctx.redactor),
    ];
    const problems: string[] = [];
    for (const c of step.captures) {
      const got = capture(response, c.from);
      if (got.found) {
        // A cookie's value is a session credential whatever the capture is called.
        if (
          c.from.kind === "cookie" || isSecretCaptureName(c.name) ||
          inputs.captures.has(`${step.name}\0${c.name}`)
        ) {
          secretLeaves(got.value, ctx.secret);
        }
        captured.set(c.name, got.value);
        result.captures.push(c.name);
      } else problems.push(`capture "${c.name}": ${got.why}`);
    }
    const unmet = failing(outcome.last.until);
    const failed = failing(result.assertions.filter((r) => r.phase === "assert"));
    if (unmet.length === 0 && failed.length === 0 && problems.length === 0) return finish("passed");
    result.response.body_excerpt = response.excerpt(EXCERPT, ctx.redactor);
    keepDetails();
    if (!outcome.satisfied) {
      const more = unmet.length > 1 ? ` (and ${unmet.length - 1} more)` : "";
      return finish(
        "failed",
        "until",
        `Still unmet after ${outcome.attempts} attempts: ${unmet[0].message}${more}.`,
      );
    }
    if (failed.length > 0) {
      const more = failed.length > 1 ? ` (and ${failed.length - 1} more)` : "";
      return finish("failed", "assertion", `${failed[0].message}${more}.`);
    }
    return finish("failed", "capture", `${problems.join("; ")}.`);
  } catch (error) {
    if (error instanceof ExpressionError) return finish("error", "expression", error.message);
    if (error instanceof RequestError) return finish("error", "request", error.message);
    throw error;
  }
}

/**
 * Runs one flow. Never throws for failures in the flow: they are results.
 *
 * @example
 * ```ts
 * import { loadFlow } from "./load.ts";
 * import { runFlow } from "./run.ts";
 * const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, () => Response.json({ state: "ready" }));
 * const url = `http://127.0.0.1:${server.addr.port}`;
 * const { flow } = loadFlow(
 *   `name: ping\nsteps:\n  - name: get\n    request: {url: "${url}"}\n    assert:\n      status: 200\n      json: [{path: $.json.state, equals: ready}]\n`,
 *   "ping.yaml",
 * );
 * const result = await runFlow(flow!, { runId: "r1" });
 * await server.shutdown();
 * if (result.status !== "passed" || result.steps[0].assertions.length !== 2) throw new Error();
 * ```
 */
export async function runFlow(flow: Flow, options: RunOptions = {}): Promise<FlowResult> {
  return await runOne(flow, context(options));
}

function context(options: RunOptions): Context {
  const redactor = options.redactor ?? new Redactor();
  const secret = (value: string) => {
    redactor.add(value);
    options.onSecret?.(value);
  };
  const named = new Set(options.secrets ?? []);
  const isSecret = (name: string) => named.has(name) || isSecretName(name);
  const params = options.params ?? new Map();
  for (const [name, value] of params) if (isSecret(name)) secret(value);
  const readEnv = options.env ?? (() => undefined);
  return {
    env: (name) => {
      const value = readEnv(name);
      if (value !== undefined && isSecret(name)) secret(value);
      return value;
    },
    params,
    runId: options.runId ?? newRunId(),
    timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    maxBodyBytes: options.maxBodyBytes,
    reporter: options.reporter ?? {},
    signal: options.signal,
    redactor,
    detailed: 0,
    secret,
    trace: options.trace ?? false,
  };
}

/** Masks a body, then cuts it at `max` characters; `cut` counts the characters left out. */
function cutBody(text: string, redactor: Redactor, max: number): { text: string; cut: number } {
  // Only the part that is kept needs masking, and enough after it that a secret across the cut is seen.
  const window = max + MAX_BODY;
  const masked = redactor.redact(text.length > window ? text.slice(0, window) : text);
  if (masked.length <= max && text.length <= window) return { text: masked, cut: 0 };
  const kept = redactor.head(masked, max).slice(0, -1);
  return { text: kept, cut: text.length - kept.length };
}

/** Registers what a flow sends in secret places, as soon as its vars exist. */
function registerInputs(inputs: SecretInputs, scope: Scope, ctx: Context): void {
  for (const literal of inputs.literals) ctx.secret(literal);
  for (const name of inputs.vars) {
    if (scope.vars.has(name)) secretLeaves(scope.vars.get(name), ctx.secret);
  }
  for (const name of inputs.env) {
    if (!scope.vars.has(name)) {
      const value = ctx.env(name);
      if (value !== undefined) ctx.secret(value);
    }
  }
}

async function runOne(flow: Flow, ctx: Context): Promise<FlowResult> {
  const ref = { file: flow.file, name: flow.name };
  await ctx.reporter.onFlowStart?.(ref);
  const startedAt = new Date();
  const started = performance.now();
  const vars = new Map<string, unknown>();
  const steps = new Map<string, Map<string, unknown>>();
  const traceId = randomHex(32);
  const scope: Scope = { env: ctx.env, vars, steps, runId: ctx.runId, traceId };
  const results: StepResult[] = [];
  /** How many secrets the redactor knew when each result was masked. */
  const maskedAt: number[] = [];
  let stop: string | undefined;
  const inputs = secretInputs(flow);
  try {
    for (const v of flow.vars) vars.set(v.name, ctx.params.get(v.name) ?? render(v.value, scope));
    for (const [name, value] of ctx.params) if (!vars.has(name)) vars.set(name, value);
    registerInputs(inputs, scope, ctx);
  } catch (error) {
    if (!(error instanceof ExpressionError)) throw error;
    stop = `the flow's vars could not be evaluated: ${error.message}`;
  }
  for (const step of flow.steps) {
    let result: StepResult;
    if (!stop && ctx.signal?.aborted) stop = `the run was interrupted (${reasonOf(ctx.signal)})`;
    if (stop) {
      result = skipped(
        step,
        `Skipped because ${stop.replace(/\.$/, "")}.`,
        round(performance.now() - started),
      );
      if (ctx.signal?.aborted) result.failure_kind = "interrupted";
    } else {
      const captured = new Map<string, unknown>();
      steps.set(step.name, captured);
      result = ctx.redactor.redactValue(
        await runStep(ref, step, scope, captured, ctx, started, inputs),
      );
      if (result.failure_kind === "interrupted") {
        stop = `the run was interrupted (${reasonOf(ctx.signal!)})`;
      } else if (result.status !== "passed") {
        stop = `step "${step.name}" ${result.status === "error" ? "had an error" : "failed"}`;
      }
    }
    results.push(result);
    maskedAt.push(ctx.redactor.size);
    await ctx.reporter.onStepEnd?.(ref, result);
  }
  // A step's result may hold a value that became secret later in the flow: mask it again then.
  const known = ctx.redactor.size;
  const flowResult: FlowResult = {
    file: flow.file,
    name: flow.name,
    status: flowStatus(results),
    ...(ctx.trace ? { trace_id: traceId } : {}),
    started_at: startedAt.toISOString(),
    duration_ms: round(performance.now() - started),
    steps: results.map((r, i) => maskedAt[i] === known ? r : ctx.redactor.redactValue(r)),
  };
  await ctx.reporter.onFlowEnd?.(flowResult);
  return flowResult;
}

/**
 * A flow's status from its steps: the status of the step that stopped it;
 * `skipped` when it was interrupted or never ran; `error` when its vars could
 * not be evaluated (every step skipped, none interrupted).
 */
function flowStatus(steps: readonly StepResult[]): FlowResult["status"] {
  const stopper = steps.find((s) => s.status === "failed" || s.status === "error");
  if (stopper) return stopper.status;
  if (steps.some((s) => s.failure_kind === "interrupted")) return "skipped";
  return steps.every((s) => s.status === "skipped") ? "error" : "passed";
}

/** A flow that was never started: every step skipped with the reason. */
function notRun(flow: Flow, reason: string, kind: StepResult["failure_kind"]): FlowResult {
  return {
    file: flow.file,
    name: flow.name,
    status: "skipped",
    started_at: new Date().toISOString(),
    duration_ms: 0,
    steps: flow.steps.map((step) => ({ ...skipped(step, reason), failure_kind: kind })),
  };
}

/**
 * Runs flows, `jobs` at a time, and assembles the run result that the
 * reports serialise: flows in the order given (sorted by path when loaded
 * with `loadFlows`), whatever order they finish in. Never throws for test
 * failures.
 *
 * @example
 * ```ts
 * import { runFlows } from "./run.ts";
 * const result = await runFlows([], { runId: "empty" });
 * if (result.status !== "passed" || result.totals.flows.total !== 0) throw new Error();
 * ```
 */
export async function runFlows(
  flows: readonly Flow[],
  options: RunOptions = {},
): Promise<RunResult> {
  const ctx = context(options);
  const startedAt = new Date().toISOString();
  const started = performance.now();
  await ctx.reporter.onRunStart?.({
    run_id: ctx.runId,
    runner_version: VERSION,
    started_at: startedAt,
    files: flows.map((f) => f.file),
  });
  const results = new Array<FlowResult>(flows.length);
  let next = 0;
  let failedFlow: string | undefined;
  // Workers take the next flow in order, so with --jobs 1 the run is strictly sequential.
  const worker = async () => {
    while (next < flows.length) {
      const index = next++;
      const flow = flows[index];
      if (ctx.signal?.aborted) {
        results[index] = notRun(
          flow,
          `Not run: the run was interrupted (${reasonOf(ctx.signal)}).`,
          "interrupted",
        );
      } else if (failedFlow !== undefined) {
        results[index] = notRun(
          flow,
          `Not run: --fail-fast stopped the run after ${failedFlow} failed.`,
          "skipped",
        );
      } else {
        results[index] = await runOne(flow, ctx);
        if (options.failFast && results[index].status !== "passed" && failedFlow === undefined) {
          failedFlow = flow.file;
        }
        continue;
      }
      await ctx.reporter.onFlowEnd?.(results[index]);
    }
  };
  const jobs = Math.max(
    1,
    Math.min(options.jobs ?? navigator.hardwareConcurrency ?? 1, flows.length),
  );
  await Promise.all(Array.from({ length: jobs }, worker));
  const result: RunResult = {
    run_id: ctx.runId,
    runner_version: VERSION,
    started_at: startedAt,
    duration_ms: round(performance.now() - started),
    status: results.every((f) => f.status === "passed") ? "passed" : "failed",
    ...(ctx.signal?.aborted ? { interrupted: reasonOf(ctx.signal) } : {}),
    totals: totalsOf(results),
    flows: results,
  };
  await ctx.reporter.onRunEnd?.(result);
  return result;
}

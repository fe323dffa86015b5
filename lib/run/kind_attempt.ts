/**
 * One attempt of a step of another kind (gRPC, WebSocket, SSE): the kind
 * runs it through {@linkcode KindCall}, and its outcome becomes an
 * {@linkcode Attempt} like an HTTP one's — a request line, a response whose
 * status, headers and JSON body the checks, captures, polling, retries and
 * reports read as they read an HTTP response's. Secrets are registered on
 * both sides as for HTTP: by where a value was sent or received.
 *
 * @module
 */
import { evaluateChecks } from "../check/assert.ts";
import { evaluate, render, toText } from "../expr/template.ts";
import type { AuthHandler } from "../http/auth.ts";
import { DEFAULT_MAX_BODY_BYTES } from "../http/body_limits.ts";
import { publicSuffixes } from "../http/cookie_jar.ts";
import { networkReason } from "../http/network_reason.ts";
import type { ResolvedRequest } from "../http/request.ts";
import { RequestError } from "../http/request_error.ts";
import { ReceivedResponse } from "../http/response.ts";
import { type KindCall, type KindNetwork, kindOf, type KindOutcome } from "../kinds/mod.ts";
import type { StepOptions } from "../model/flow.ts";
import type { AssertionResult } from "../model/result.ts";
import { secretsInRequest, secretsInResponse } from "../secrets/discover.ts";
import type { Attempt } from "./attempt.ts";
import { bypasses } from "./transport.ts";
import { Wire } from "./exchange.ts";
import { type Context, round, type StepInput, type WithJar } from "./context.ts";

/** Reasons a kind may give for no answer, as the runner's request errors name them. */
const REASONS = new Set(["network", "timeout", "bad-url", "interrupted", "body-too-large"]);

/**
 * Runs a kind step's call once as attempt number `number`.
 *
 * @example
 * ```ts
 * import { kindAttempt } from "./kind_attempt.ts";
 * if (typeof kindAttempt !== "function") throw new Error();
 * ```
 */
export async function kindAttempt(
  input: StepInput,
  ctx: Context,
  number: number,
  auth?: AuthHandler,
): Promise<Attempt> {
  const { step } = input;
  const kind = kindOf(step.call!.kind)!;
  const call = kindCall(input, ctx, auth);
  await cookiesReady(call);
  const sent = performance.now();
  const outcome = await kind.attempt(step.call!.spec, call);
  const request: ResolvedRequest = { ...outcome.request, headers: [...outcome.request.headers] };
  secretsInRequest(request, ctx.secret);
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
    await wire?.failed(error.message);
    if (onAttempt) {
      const message = ctx.rawEvents ? error.message : ctx.redactor.redact(error.message);
      await onAttempt.call(ctx.reporter, input.ref, { ...info, error: message, duration_ms });
    }
    return { request, error, until: [], kind: kind.key };
  }
  const { status, headers, body } = outcome.response;
  const response = new ReceivedResponse(status, headers, body);
  response.url = request.url;
  response.durationMs = duration_ms;
  secretsInResponse(response, ctx.secret, input.inputs.clear);
  await wire?.answered(response);
  const until = step.loop
    ? evaluateChecks(step.loop.until, response, input.scope, "until", ctx.redactor, request)
    : [];
  if (onAttempt) {
    const until_met = step.loop ? until.every((r) => r.passed) : undefined;
    await onAttempt.call(ctx.reporter, input.ref, { ...info, status, duration_ms, until_met });
  }
  const verdicts = (outcome.failures ?? []).map((f) => verdict(f, step));
  return { request, response, until, kind: kind.key, ...(verdicts.length > 0 ? { verdicts } : {}) };
}

/** Why a kind's call got no answer, as the runner's request error (retried like HTTP's). */
function noAnswer(error: KindOutcome["error"], what: string): RequestError {
  const reason = error?.reason ?? "network";
  const code = (REASONS.has(reason) ? reason : "network") as RequestError["code"];
  return new RequestError(code, error?.message ?? `${what} got no answer.`);
}

/** A kind's failed verdict as a failed check of the step, placed at the step. */
function verdict(
  failure: { check: string; message: string },
  at: { line: number; column: number },
): AssertionResult {
  return {
    phase: "assert",
    path: failure.check,
    operator: "holds",
    expected: true,
    actual: false,
    found: true,
    passed: false,
    message: failure.message,
    line: at.line,
    column: at.column,
  };
}

/** The jar's Public Suffix List is loaded by the first step that keeps cookies, not by every run. */
async function cookiesReady(call: KindCall): Promise<void> {
  if (call.cookies) await publicSuffixes.load();
}

/**
 * What the kind is given: the step's scope, deadline and signal, the run's
 * network and limits, and the step's auth for the HTTP requests it sends.
 */
function kindCall(input: StepInput, ctx: Context, auth: AuthHandler | undefined): KindCall {
  const { step, scope } = input;
  // The flow run's jar when this step uses it, as attempt.ts decides for an HTTP step.
  const { jar, jarOn } = scope as WithJar;
  const cookies = (step.options?.cookieJar ?? jarOn ?? ctx.cookieJar) ? jar : undefined;
  return {
    render: (value) => render(value, scope),
    text: (template) => toText(evaluate(template, scope)),
    timeoutMs: step.options?.timeoutMs ?? ctx.timeoutMs,
    signal: ctx.signal,
    network: (url) => networkFor(url, step.options, ctx),
    maxBodyBytes: ctx.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
    secret: (value) => ctx.secret(value),
    networkReason: (error) => networkReason(error),
    authorize: async (request) => {
      if (!auth) return request;
      // The one place a kind's request meets the step's auth, as attempt.ts's for HTTP.
      const authorized = { ...request, headers: [...request.headers] };
      await auth.apply(authorized);
      return authorized;
    },
    ...(cookies ? { cookies } : {}),
  };
}

/** The run's TLS and proxy settings with the step's over them, as `transport.ts` combines them. */
function networkFor(
  url: string,
  own: StepOptions | undefined,
  ctx: Pick<Context, "network" | "env">,
): KindNetwork {
  const run = ctx.network ?? {};
  const step = own ?? {};
  const cert = step.clientCert ?? run.clientCert;
  const caCerts = [...run.caCerts ?? [], ...step.caCerts ?? []];
  const proxy = bypassesUrl(url, step.noProxy ?? run.noProxy ?? [])
    ? undefined
    : step.proxy ?? run.proxy;
  return {
    ...(caCerts.length > 0 ? { caCerts } : {}),
    ...(cert ? { cert: cert.cert, key: cert.key } : {}),
    insecure: step.insecure ?? run.insecure ?? false,
    ...(proxy ? { proxy } : {}),
  };
}

/** Whether `url`'s host is reached without the proxy, as an HTTP step's is (transport.ts). */
function bypassesUrl(url: string, noProxy: readonly string[]): boolean {
  // Every call of a kind step asks: most runs list no host, and parsing the URL is then wasted.
  if (noProxy.length === 0) return false;
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase();
  } catch {
    // A target the URL parser cannot read (host:port): matched as written.
    host = url.replace(/:\d+$/, "").toLowerCase();
  }
  return bypasses(host, noProxy);
}

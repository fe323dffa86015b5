/**
 * The runner's first level: one attempt, request → response, as a straight
 * line: the request is worked out once (rendered, the jar's cookies and a
 * `traceparent` added, its secrets registered), the reporter told, the
 * request sent; a network failure returns at once as an outcome (`error`),
 * not an exception; with a loop, the `until` checks are evaluated on the
 * response.
 *
 * @module
 */
import { evaluateChecks } from "../check/assert.ts";
import { type CookieJar, publicSuffixes } from "../http/cookie_jar.ts";
import { randomHex } from "../expr/template.ts";
import { addCookies, type ResolvedRequest, resolveRequest } from "../http/request.ts";
import { RequestError } from "../http/request_error.ts";
import { requestMessage } from "./request_message.ts";
import { send } from "../http/send.ts";
import type { AuthHandler } from "../http/auth.ts";
import type { RequestInfo } from "../model/events.ts";
import type { ReceivedResponse } from "../http/response.ts";
import type { AssertionResult } from "../model/result.ts";
import { secretsInRequest, secretsInResponse } from "../secrets/discover.ts";
import { plusJarCookies } from "../secrets/cookie_header.ts";
import { type Context, round, type StepInput, traceContext, type WithJar } from "./context.ts";
import { transportFor } from "./transport.ts";
import type { CoverageCollector } from "./coverage.ts";
import { RedirectAuth } from "./redirect_auth.ts";
import { Wire } from "./exchange.ts";
import { type ShownRequest, shownRequest } from "./request_shown.ts";
import type { Step } from "../model/flow.ts";

/**
 * One request attempt: a response, or why there was none.
 *
 * @example
 * ```ts
 * import type { Attempt } from "./attempt.ts";
 * const a: Attempt = { request: { method: "GET", url: "http://x.test/", headers: [] }, until: [] };
 * if (a.response !== undefined) throw new Error();
 * ```
 */
export interface Attempt {
  /** The request as it was sent: rendered, with the jar's cookies and a `traceparent`. */
  request: ResolvedRequest;
  /** The response, when one arrived. */
  response?: ReceivedResponse;
  /** Why no response arrived. */
  error?: RequestError;
  /** The `until` results of a polling step (empty otherwise). */
  until: AssertionResult[];
  /** The trace context the request carried, when it had a well-formed one. */
  trace?: { trace_id: string; span_id: string };
  /** The request masked by provenance, when it holds a secret that is an ordinary word. */
  shown?: ShownRequest;
  /** A step kind's own failed verdicts on the response (kind_attempt.ts), listed with the checks. */
  verdicts?: AssertionResult[];
  /**
   * The step kind whose own outcome this is (`grpc`): absent when the
   * runner's HTTP exchange made it (`KindCall.send`), so no curl line.
   */
  kind?: string;
}

/**
 * Sends the step's request once as attempt number `number`. Throws only for
 * what is not the network's fault (an expression that cannot be resolved).
 *
 * @example
 * ```ts
 * import { attempt } from "./attempt.ts";
 * import { loadFlow } from "../load/load_flow.ts";
 * import { Redactor } from "../secrets/mod.ts";
 * const { flow } = loadFlow('name: f\nsteps:\n  - name: s\n    request: {url: "http://127.0.0.1:9/"}\n', "f.yaml");
 * const ctx = { env: () => undefined, params: new Map(), runId: "r", timeoutMs: 2000, reporter: {},
 *   redactor: new Redactor(), detailed: 0, secret: () => {}, trace: false };
 * const scope = { vars: new Map(), steps: new Map(), env: () => undefined, runId: "r", traceId: "0".repeat(32) };
 * const inputs = { literals: new Set<string>(), vars: new Set<string>(), env: new Set<string>(), captures: new Set<string>() };
 * const input = { ref: { name: "f", file: "f.yaml" }, step: flow!.steps[0], scope, captured: new Map(), flowStarted: 0, inputs };
 * const a = await attempt(input, ctx, 1);
 * if (a.response || !a.error) throw new Error("port 9 should refuse the connection");
 * ```
 */
export async function attempt(
  input: StepInput,
  ctx: Context,
  number: number,
  auth?: AuthHandler,
): Promise<Attempt> {
  const { step, scope } = input;
  const { request, bare, jar, ownCookie, shown, written } = await prepared(input, ctx, auth);
  const trace = traceContext(withTraceparent(request, scope.traceId, ctx.trace));
  const hops = redirectAuth(step, bare, request, auth);
  const { onRequest, onAttempt } = ctx.reporter;
  // Most runs' reporters listen to neither: no masked URL, no object, no await per request.
  const info = onRequest || onAttempt
    ? requestInfo(input, number, request, trace, ctx, shown?.url)
    : undefined;
  if (onRequest) await onRequest.call(ctx.reporter, input.ref, info!);
  // Only a reporter that records the wire (the HAR) has each request and answer told.
  const wire = ctx.reporter.onExchange
    ? new Wire(ctx, input.ref, input.label ?? step.name, number, request)
    : undefined;
  const sent = performance.now();
  // The method of the request that answers next: a redirect may turn a POST into a GET.
  const via = { method: request.method };
  let response: ReceivedResponse;
  try {
    response = await send(request, {
      timeoutMs: step.options?.timeoutMs ?? ctx.timeoutMs,
      maxBodyBytes: ctx.maxBodyBytes,
      bodyMemoryBytes: ctx.bodyMemoryBytes,
      signal: ctx.signal,
      deadlines: ctx.deadlines,
      followRedirects: step.options?.followRedirects,
      // Called only when redirects are followed: no closure for the other requests.
      onRedirect: step.options?.followRedirects
        ? redirectHook(
          { request, jar, ownCookie, via, hops, wire, written },
          ctx,
        )
        : undefined,
      ...transportFor(request.url, step.options, ctx),
    });
  } catch (error) {
    return await noResponse(error, { input, ctx, info, wire, sent, request, trace, shown });
  }
  const duration_ms = round(performance.now() - sent);
  response.durationMs = duration_ms;
  keepCookies(jar, response, response.url ?? request.url);
  noteCoverage(ctx.coverage, step, via.method, response.url ?? request.url, response.status);
  secretsInResponse(response, ctx.secret, input.inputs.clear, request.url);
  await wire?.answered(response);
  const until = step.loop
    ? evaluateChecks(step.loop.until, response, scope, "until", ctx.redactor, request)
    : [];
  if (onAttempt) {
    const until_met = step.loop ? until.every((r) => r.passed) : undefined;
    const status = response.status;
    await onAttempt.call(ctx.reporter, input.ref, { ...info!, status, duration_ms, until_met });
  }
  return { request, response, until, trace, shown };
}

/**
 * An attempt that no response answered: its reporters told why. What is not
 * the network's fault (an expression, a hook's own failure) is thrown.
 */
async function noResponse(
  error: unknown,
  at: {
    input: StepInput;
    ctx: Context;
    info?: RequestInfo;
    wire?: Wire;
    sent: number;
    request: ResolvedRequest;
    trace: Attempt["trace"];
    shown?: ShownRequest;
  },
): Promise<Attempt> {
  if (!(error instanceof RequestError)) throw error;
  const { ctx } = at;
  const duration_ms = round(performance.now() - at.sent);
  // Its values masked here, raw events too: what is left is flowrun's words, which the
  // reports and the HAR's note keep (a value's secret is no longer known apart from them after).
  const masked = requestMessage(error, ctx.redactor);
  await at.wire?.failed(masked);
  const { onAttempt } = ctx.reporter;
  if (onAttempt) {
    await onAttempt.call(ctx.reporter, at.input.ref, { ...at.info!, error: masked, duration_ms });
  }
  return { request: at.request, error, until: [], trace: at.trace, shown: at.shown };
}

/**
 * The request rendered, with the jar's cookies and then its auth (a signature
 * covers them); `bare` is it before the auth, where a redirect hop starts.
 */
async function prepared(input: StepInput, ctx: Context, auth: AuthHandler | undefined) {
  const { step, scope } = input;
  const request = resolveRequest(step.request, scope, step.options?.omitEmptyHeaders);
  const jar = jarOf(input, ctx);
  // The jar's Public Suffix List is loaded by the first step that keeps cookies, not by every run.
  if (jar) await publicSuffixes.load();
  const { own: ownCookie, sent } = jar ? withJarCookies(request, jar) : {};
  const bare = auth ? { ...request, headers: [...request.headers] } : undefined;
  // The one place a step's auth meets its request (see http/auth.ts).
  if (auth) await auth.apply(request);
  // The jar's cookies were judged as they arrived (cookie_header.ts): not registered again.
  const written = plusJarCookies(input.inputs.written, sent);
  secretsInRequest(request, ctx.secret, written);
  const shown = shownRequest(step, scope, request, ctx.redactor, input.inputs.literals);
  return { request, bare, jar, ownCookie, shown, written };
}

/**
 * A step that follows redirects with auth: each hop is authorised anew
 * (redirect_auth.ts), from the request before its credentials.
 */
function redirectAuth(
  step: Step,
  bare: ResolvedRequest | undefined,
  request: ResolvedRequest,
  auth: AuthHandler | undefined,
): RedirectAuth | undefined {
  if (!bare || !auth || !step.options?.followRedirects) return undefined;
  return new RedirectAuth(withHeaderOf(bare, request, "traceparent"), auth);
}

/** `to` with `from`'s header of that name, when `to` lacks one (a `traceparent` added later). */
function withHeaderOf(to: ResolvedRequest, from: ResolvedRequest, lower: string): ResolvedRequest {
  const value = headerOf(from, lower);
  if (value !== undefined && headerOf(to, lower) === undefined) to.headers.push([lower, value]);
  return to;
}

/** What a reporter is told of a request: its URL (masked unless events are raw), its trace context. */
function requestInfo(
  input: StepInput,
  number: number,
  request: ResolvedRequest,
  trace: Attempt["trace"],
  ctx: Context,
  shownUrl?: string,
): RequestInfo {
  return {
    step: input.label ?? input.step.name,
    attempt: number,
    method: request.method,
    // Masked by provenance where it was (request_shown.ts; raw events too: no reader can tell
    // where a secret went), else by value.
    url: shownUrl ?? (ctx.rawEvents ? request.url : ctx.redactor.redact(request.url)),
    ...trace,
  };
}

/** The response's cookies kept in the jar, and what the jar then holds for `url` (`$.jar`). */
function keepCookies(jar: CookieJar | undefined, response: ReceivedResponse, url: string): void {
  if (!jar) return;
  jar.store(url, response.setCookies);
  response.jar = jar.values(url);
}

/**
 * The flow run's cookie jar when this step uses it: a step's own option wins;
 * included flows' steps follow the flow run that includes them.
 */
function jarOf(input: StepInput, ctx: Context): CookieJar | undefined {
  const { jar, jarOn } = input.scope as WithJar;
  return (input.step.options?.cookieJar ?? jarOn ?? ctx.cookieJar) ? jar : undefined;
}

/**
 * Adds the cookies the jar holds for the request's URL, after any the step
 * sets itself; returns the step's own, which each redirect hop to the same
 * origin sends again.
 */
function withJarCookies(
  request: ResolvedRequest,
  jar: CookieJar,
): { own?: string; sent?: string } {
  const own = headerOf(request, "cookie");
  const sent = jar.header(request.url);
  if (sent) addCookies(request.headers, sent);
  return { own, sent };
}

/** A header's value (the first of that name, compared case-insensitively). */
function headerOf(request: ResolvedRequest, lower: string): string | undefined {
  return request.headers.find(([name]) => name.toLowerCase() === lower)?.[1];
}

/**
 * The request's `traceparent`: its own, or with tracing on a new one in the
 * flow run's trace (a fresh span id per request).
 */
function withTraceparent(
  request: ResolvedRequest,
  traceId: string | undefined,
  trace: boolean,
): string | undefined {
  const own = headerOf(request, "traceparent");
  if (own !== undefined || !trace) return own;
  const traceparent = `00-${traceId}-${randomHex(16)}-01`;
  request.headers.push(["traceparent", traceparent]);
  return traceparent;
}

/** What a redirect hop gets: the coverage noted, its cookies, its credentials anew. */
function redirectHook(
  at: {
    request: ResolvedRequest;
    jar?: CookieJar;
    ownCookie?: string;
    via: { method: string };
    hops?: RedirectAuth;
    wire?: Wire;
    written?: ReadonlySet<string>;
  },
  ctx: Context,
) {
  return async (hop: ReceivedResponse, next: ResolvedRequest) => {
    ctx.coverage?.record(at.via.method, hop.url ?? at.request.url, hop.status);
    at.hops?.unauthorised(hop, next);
    at.via.method = next.method;
    const written = followed(hop, next, at, ctx);
    if (at.hops) {
      await at.hops.authorise(next);
      secretsInRequest(next, ctx.secret, written);
    }
    await at.wire?.answered(hop, next);
  };
}

/**
 * A redirect followed: its secrets registered; with a jar, its cookies kept,
 * and the next hop sending what the jar holds for its URL, after the step's
 * own cookies (same origin only); returns what the flow wrote, with the
 * jar's cookies that hop sends (judged as they arrived, not registered again).
 */
function followed(
  hop: ReceivedResponse,
  next: ResolvedRequest,
  at: {
    request: ResolvedRequest;
    jar?: CookieJar;
    ownCookie?: string;
    written?: ReadonlySet<string>;
  },
  ctx: Context,
): ReadonlySet<string> | undefined {
  const { request, jar, ownCookie } = at;
  secretsInResponse(hop, ctx.secret);
  if (!jar) return at.written;
  jar.store(hop.url ?? request.url, hop.setCookies);
  const own = new URL(next.url).origin === new URL(request.url).origin ? ownCookie : undefined;
  next.headers = next.headers.filter(([name]) => name.toLowerCase() !== "cookie");
  if (own) next.headers.push(["cookie", own]);
  const cookies = jar.header(next.url);
  if (cookies) addCookies(next.headers, cookies);
  const written = plusJarCookies(at.written, cookies);
  secretsInRequest(next, ctx.secret, written);
  return written;
}

/** The response that answered, for the run's OpenAPI coverage, and the step's documents. */
function noteCoverage(
  coverage: CoverageCollector | undefined,
  step: Step,
  method: string,
  url: string,
  status: number,
): void {
  if (!coverage) return;
  coverage.record(method, url, status);
  for (const check of step.assert?.schemas ?? []) {
    if (check.kind === "openapi") coverage.addCheck(check);
  }
}

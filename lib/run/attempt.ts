/**
 * The runner's first level: one attempt, request → response. The request is
 * resolved from the scope, its secrets registered, a `traceparent` added when
 * tracing, the reporter told before and after; a network failure is an
 * outcome (`error`), not an exception. With a loop, the `until` checks are
 * evaluated on the response.
 *
 * @module
 */
import { evaluateChecks } from "../check/assert.ts";
import { publicSuffixes } from "../http/cookie_jar.ts";
import { randomHex, type Scope } from "../expr/template.ts";
import type { Step } from "../model/flow.ts";
import { addCookies, type ResolvedRequest, resolveRequest } from "../http/request.ts";
import { RequestError } from "../http/request_error.ts";
import { send, type SendOptions } from "../http/send.ts";
import { httpClient } from "../io/http_client.ts";
import type { FlowRef } from "../report/reporter.ts";
import type { ReceivedResponse } from "../http/response.ts";
import type { AssertionResult } from "../model/result.ts";
import { secretsInRequest, secretsInResponse } from "../secrets/discover.ts";
import { userinfoSecrets } from "../secrets/userinfo.ts";
import { type Context, round, traceContext, type WithJar } from "./context.ts";

/** One request attempt: a response, or why there was none. */
export interface Attempt {
  request: ResolvedRequest;
  response?: ReceivedResponse;
  error?: RequestError;
  /** The `until` results of a polling step (empty otherwise). */
  until: AssertionResult[];
  /** The trace context the request carried, when it had a well-formed one. */
  trace?: { trace_id: string; span_id: string };
}

/**
 * How a request is sent: the run's network settings with the step's options
 * over them (CAs add up, the rest overrides). Most runs set none of them and
 * get the runtime's default client, which follows HTTP(S)_PROXY and NO_PROXY;
 * an insecure request goes its own way and reads those variables itself.
 */
function transportFor(
  url: string,
  step: Step,
  ctx: Context,
): Pick<SendOptions, "client" | "insecure"> {
  const run = ctx.network ?? {};
  const own = step.options ?? {};
  // Most runs set none of these: the default client, without parsing the URL again.
  if (!ctx.network && !own.caCerts && !own.clientCert && !own.proxy && !own.insecure) return {};
  const cert = own.clientCert ?? run.clientCert;
  // A flow's proxy password is as secret as the run's: masked in every form it may be written.
  for (const form of own.proxy ? userinfoSecrets(own.proxy, { proxy: true }) : []) {
    ctx.secret(form);
  }
  const host = new URL(url).hostname.toLowerCase();
  if (own.insecure ?? run.insecure) {
    const fromEnv = (name: string) => ctx.env(name) ?? ctx.env(name.toLowerCase()) ?? undefined;
    const envProxy = url.startsWith("https:") ? fromEnv("HTTPS_PROXY") : fromEnv("HTTP_PROXY");
    const noProxy = own.noProxy ?? run.noProxy ??
      (fromEnv("NO_PROXY")?.split(",").map((h) => h.trim()).filter(Boolean) ?? []);
    const proxy = bypasses(host, noProxy) ? undefined : own.proxy ?? run.proxy ?? envProxy;
    return { insecure: { ...(proxy ? { proxy } : {}), ...(cert ?? {}) } };
  }
  const caCerts = [...run.caCerts ?? [], ...own.caCerts ?? []];
  const proxy = bypasses(host, own.noProxy ?? run.noProxy ?? [])
    ? undefined
    : own.proxy ?? run.proxy;
  if (caCerts.length === 0 && !cert && !proxy) return {};
  try {
    return {
      client: httpClient({
        ...(caCerts.length > 0 ? { caCerts } : {}),
        ...(cert ? { cert: cert.cert, key: cert.key } : {}),
        ...(proxy ? { proxy } : {}),
      }),
    };
  } catch (error) {
    // Checked when the run started; should the runtime still refuse, this step fails, not the run.
    throw new RequestError(
      "network",
      `Request failed: the HTTP client for its CA certificates, client certificate or proxy ` +
        `could not be made (${(error as Error).message.replace(/\.$/, "")}).`,
    );
  }
}

/** Whether `host` is reached without the proxy: a listed name, a `.suffix` domain, or `*`. */
function bypasses(host: string, noProxy: readonly string[]): boolean {
  return noProxy.some((entry) => {
    const h = entry.toLowerCase().replace(/:\d+$/, "");
    return h === "*" || host === h ||
      (h.startsWith(".") ? host.endsWith(h) : host.endsWith(`.${h}`));
  });
}

/**
 * Sends `step`'s request once as attempt number `number`. Throws only for
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
 * // deno-lint-ignore no-explicit-any
 * const a = await attempt(flow!.steps[0], scope as any, ctx, { name: "f", file: "f.yaml" } as any, 1);
 * if (a.response || !a.error) throw new Error("port 9 should refuse the connection");
 * ```
 */
export async function attempt(
  step: Step,
  scope: Scope,
  ctx: Context,
  ref: FlowRef,
  number: number,
): Promise<Attempt> {
  const request = resolveRequest(step.request, scope);
  // With a cookie jar the step sends the cookies that match, after any it sets itself.
  // A step's own option wins; included flows' steps follow the flow run that includes them.
  const { jar: flowJar, jarOn } = scope as WithJar;
  const jar = (step.options?.cookieJar ?? jarOn ?? ctx.cookieJar) ? flowJar : undefined;
  // The jar's Public Suffix List is loaded by the first step that keeps cookies, not by every run.
  if (jar) await publicSuffixes.load();
  const ownCookie = request.headers.find(([name]) => name.toLowerCase() === "cookie")?.[1];
  const jarCookies = jar?.header(request.url);
  if (jarCookies) addCookies(request.headers, jarCookies);
  const onRedirect = (hop: ReceivedResponse, next: ResolvedRequest) => {
    secretsInResponse(hop, ctx.secret);
    if (!jar) return;
    // Each hop sends what the jar holds for its URL, after the step's own cookies (same origin only).
    jar.store(hop.url ?? request.url, hop.setCookies);
    const own = new URL(next.url).origin === new URL(request.url).origin ? ownCookie : undefined;
    next.headers = next.headers.filter(([name]) => name.toLowerCase() !== "cookie");
    if (own) next.headers.push(["cookie", own]);
    const cookies = jar.header(next.url);
    if (cookies) addCookies(next.headers, cookies);
    secretsInRequest(next, ctx.secret);
  };
  secretsInRequest(request, ctx.secret);
  let traceparent = request.headers.find(([name]) => name.toLowerCase() === "traceparent")?.[1];
  if (traceparent === undefined && ctx.trace) {
    traceparent = `00-${scope.traceId}-${randomHex(16)}-01`;
    request.headers.push(["traceparent", traceparent]);
  }
  const trace = traceContext(traceparent);
  const { onRequest, onAttempt } = ctx.reporter;
  // Most runs' reporters listen to neither: no masked URL, no object, no await per request.
  const info = onRequest || onAttempt
    ? {
      step: step.name,
      attempt: number,
      method: request.method,
      url: ctx.redactor.redact(request.url),
      ...trace,
    }
    : undefined;
  if (onRequest) await onRequest.call(ctx.reporter, ref, info!);
  const sent = performance.now();
  try {
    const response = await send(request, {
      timeoutMs: step.options?.timeoutMs ?? ctx.timeoutMs,
      maxBodyBytes: ctx.maxBodyBytes,
      bodyMemoryBytes: ctx.bodyMemoryBytes,
      signal: ctx.signal,
      deadlines: ctx.deadlines,
      followRedirects: step.options?.followRedirects,
      onRedirect,
      ...transportFor(request.url, step, ctx),
    });
    const duration_ms = round(performance.now() - sent);
    response.durationMs = duration_ms;
    jar?.store(response.url ?? request.url, response.setCookies);
    secretsInResponse(response, ctx.secret);
    const until = step.loop
      ? evaluateChecks(step.loop.until, response, scope, "until", ctx.redactor, request)
      : [];
    const until_met = step.loop ? until.every((r) => r.passed) : undefined;
    if (onAttempt) {
      await onAttempt.call(ctx.reporter, ref, {
        ...info!,
        status: response.status,
        duration_ms,
        until_met,
      });
    }
    return { request, response, until, trace };
  } catch (error) {
    if (!(error instanceof RequestError)) throw error;
    const duration_ms = round(performance.now() - sent);
    if (onAttempt) {
      await onAttempt.call(ctx.reporter, ref, {
        ...info!,
        error: ctx.redactor.redact(error.message),
        duration_ms,
      });
    }
    return { request, error, until: [], trace };
  }
}

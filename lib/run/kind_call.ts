/**
 * What the runner gives one attempt of a step's kind ({@linkcode KindCall}):
 * values in the step's scope, its deadline and signal, the run's TLS and
 * proxy settings with the step's over them, the body limit, secrets, the
 * step's auth and cookie jar, and {@linkcode KindCall.send}, the runner's
 * HTTP exchange (`attempt.ts`), which the HTTP kind sends its request
 * through and a kind that speaks HTTP may too.
 *
 * @module
 */
import { evaluate, render, toText } from "../expr/template.ts";
import type { AuthHandler } from "../http/auth.ts";
import { DEFAULT_MAX_BODY_BYTES } from "../http/body_limits.ts";
import { publicSuffixes } from "../http/cookie_jar.ts";
import { networkTold } from "../http/network_reason.ts";
import type { KindCall, KindCookies, KindNetwork, KindRequest, KindSent } from "../kinds/mod.ts";
import type { RequestSpec, StepOptions } from "../model/flow.ts";
import type { Template, ValueTemplate } from "../model/template.ts";
import type { Told } from "../model/told.ts";
import { type Attempt, attempt } from "./attempt.ts";
import { bypasses, proxyEnv } from "./transport.ts";
import type { Context, StepInput, WithJar } from "./context.ts";

/**
 * One attempt's {@linkcode KindCall}; after {@linkcode StepCall.send}, the
 * runner's record of the exchange it made.
 *
 * @example
 * ```ts
 * import { StepCall } from "./kind_call.ts";
 * import { makeContext } from "./make_context.ts";
 * import type { StepInput } from "./context.ts";
 * import type { Step } from "../model/flow.ts";
 * const input: StepInput = {
 *   ref: { file: "f.yaml", name: "f" },
 *   step: { name: "s" } as Step,
 *   scope: { env: () => undefined, vars: new Map(), steps: new Map(), runId: "r" },
 *   captured: new Map(),
 *   flowStarted: 0,
 *   inputs: { literals: new Set(), vars: new Set(), env: new Set(), captures: new Set() },
 * };
 * const call = new StepCall(input, makeContext({ runId: "r", timeoutMs: 1500 }), 1);
 * if (call.timeoutMs !== 1500 || call.network("https://x.test").insecure) throw new Error();
 * ```
 */
export class StepCall implements KindCall {
  readonly timeoutMs: number;
  readonly signal?: AbortSignal;
  readonly maxBodyBytes: number;
  readonly cookies?: KindCookies;
  /** The exchange {@linkcode StepCall.send} made, and the mark it gave the kind for it. */
  #sent?: { mark: KindSent; attempt: Attempt };

  constructor(
    private readonly input: StepInput,
    private readonly ctx: Context,
    private readonly number: number,
    private readonly auth?: AuthHandler,
  ) {
    const { step, scope } = input;
    this.timeoutMs = step.options?.timeoutMs ?? ctx.timeoutMs;
    this.signal = ctx.signal;
    this.maxBodyBytes = ctx.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
    // The flow run's jar when this step uses it, as attempt.ts decides for an HTTP step.
    const { jar, jarOn } = scope as WithJar;
    if (step.options?.cookieJar ?? jarOn ?? ctx.cookieJar) this.cookies = jar;
  }

  render(value: ValueTemplate): unknown {
    return render(value, this.input.scope);
  }

  text(template: Template): string {
    return toText(evaluate(template, this.input.scope));
  }

  network(url: string): KindNetwork {
    return networkFor(url, this.input.step.options, this.ctx);
  }

  secret(value: string): void {
    this.ctx.secret(value);
  }

  networkReason(error: unknown): Told {
    return networkTold(error);
  }

  async authorize(request: KindRequest): Promise<KindRequest> {
    if (!this.auth) return request;
    // The one place a kind's request meets the step's auth, as attempt.ts's for HTTP.
    const authorized = { ...request, headers: [...request.headers] };
    await this.auth.apply(authorized);
    return authorized;
  }

  async send(request: RequestSpec): Promise<KindSent> {
    const { input } = this;
    const own = request === input.step.request ? input : {
      ...input,
      step: { ...input.step, request },
    };
    const made = await attempt(own, this.ctx, this.number, this.auth);
    this.#sent = { mark: { sent: true }, attempt: made };
    return this.#sent.mark;
  }

  /** The exchange behind `outcome`, when it is the mark {@linkcode StepCall.send} gave. */
  exchange(outcome: object): Attempt | undefined {
    return this.#sent?.mark === outcome ? this.#sent.attempt : undefined;
  }

  /** The jar's Public Suffix List is loaded by the first step that keeps cookies, not by every run. */
  async ready(): Promise<void> {
    if (this.cookies) await publicSuffixes.load();
  }
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
  const insecure = step.insecure ?? run.insecure ?? false;
  const proxy = proxyFor(url, step, run, ctx.env);
  return {
    ...(caCerts.length > 0 ? { caCerts } : {}),
    ...(cert ? { cert: cert.cert, key: cert.key } : {}),
    insecure,
    ...(proxy ? { proxy } : {}),
  };
}

/**
 * The proxy for `url`: the step's, else the run's, else the environment's (`HTTPS_PROXY` for
 * wss:// and grpcs://), unless a no-proxy host matches. A kind's client does not read the proxy
 * variables itself (grpc-js's reading is turned off, `ws` has none), so it is always given them,
 * as an insecure HTTP request is (transport.ts).
 */
function proxyFor(
  url: string,
  step: StepOptions,
  run: NonNullable<Context["network"]>,
  env: Context["env"],
): string | undefined {
  const fromEnv = proxyEnv(url.replace(/^(wss|grpcs):/, "https:"), env);
  if (bypassesUrl(url, step.noProxy ?? run.noProxy ?? fromEnv.noProxy ?? [])) return undefined;
  return step.proxy ?? run.proxy ?? fromEnv.proxy;
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

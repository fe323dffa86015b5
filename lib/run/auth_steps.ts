/**
 * A step's auth as the runner uses it: which block applies (the step's own,
 * which the loader made its flow's when it had none; else what an include
 * hands down; else the run's `--auth-file`), its handler (`http/auth.ts`),
 * and each token request it made as an entry of its own in the reports,
 * named `auth › oauth2 token` (RFC 8628's device authorization request
 * `auth › oauth2 device authorization`), just before the step that needed it.
 *
 * @module
 */
import type { Auth } from "../model/auth.ts";
import type { Step } from "../model/flow.ts";
import type { StepResult } from "../model/result.ts";
import { tell, type Told } from "../model/told.ts";
import type { Masking } from "../model/masking.ts";
import type { AuthHandler } from "../http/auth.ts";
import type { TokenExchange } from "../http/token_cache.ts";
import type { LearnedSchemes } from "../http/bearer_scheme.ts";
import type { Context, StepInput, WithAuth } from "./context.ts";
import { type Level, record, type Walk } from "./walk.ts";
import { transportFor } from "./transport.ts";

/**
 * The auth block a step's requests get: its own (or its flow's), else the
 * including flow's, else the run's.
 *
 * @example
 * ```ts
 * import { effectiveAuth } from "./auth_steps.ts";
 * // deno-lint-ignore no-explicit-any
 * const step = { name: "s" } as any;
 * if (effectiveAuth(step, { inherited: { kind: "none" } }, {})?.kind !== "none") throw new Error();
 * ```
 */
export function effectiveAuth(
  step: Step,
  scope: WithAuth,
  ctx: Pick<Context, "auth">,
): Auth | undefined {
  return step.auth ?? scope.inherited ?? ctx.auth;
}

/**
 * The handler of a step's auth, its token requests noted in `input.exchanges`.
 *
 * @example
 * ```ts
 * import { stepAuth } from "./auth_steps.ts";
 * import { makeContext } from "./make_context.ts";
 * const ctx = makeContext({ runId: "r" });
 * ctx.deadlines?.close();
 * // deno-lint-ignore no-explicit-any
 * if (await stepAuth({ step: { name: "s" }, scope: {} } as any, ctx) !== undefined) throw new Error();
 * ```
 */
export async function stepAuth(
  input: StepInput,
  ctx: Context,
): Promise<AuthHandler | undefined> {
  const auth = effectiveAuth(input.step, input.scope as WithAuth, ctx);
  if (!auth || auth.kind === "none") return undefined;
  // The kinds (and what they need: hashes, the AWS credentials file) load with the first step
  // that has auth, not with every run.
  const { authHandler } = await import("../http/auth_kinds.ts");
  return authHandler(auth, input.scope, {
    secret: ctx.secret,
    env: ctx.env,
    tokens: ctx.tokens,
    timeoutMs: ctx.timeoutMs,
    signal: ctx.signal,
    onExchange: (exchange) => (input.exchanges ??= []).push(exchange),
    // A token endpoint is reached as the step's API is: the same CAs, certificate and proxy.
    transport: (url) => transportFor(url, input.step.options, ctx),
    deadlines: ctx.deadlines,
    schemes: schemesOf(input),
    // A notice quotes URLs a short secret may be in: their values masked here, the words kept.
    ...(ctx.notice ? { notice: noticeOf(ctx.notice, ctx.redactor) } : {}),
  });
}

/** The run's `notice`, given a line told by the auth with its values masked by `display`. */
function noticeOf(
  notice: (line: string) => void,
  display: Pick<Masking, "redact">,
): (line: string, told?: Told) => void {
  return (line, told) => notice(told ? tell(told, display) : display.redact(line));
}

/**
 * The bearer words a flow run's servers asked for: one map per flow run,
 * held by the map of its steps' captures, which lives exactly as long.
 */
const LEARNED = new WeakMap<object, LearnedSchemes>();

function schemesOf(input: StepInput): LearnedSchemes {
  const key = input.scope.steps;
  let learned = LEARNED.get(key);
  if (!learned) LEARNED.set(key, learned = new Map());
  return learned;
}

/** The name of a token request's entry in the reports. */
export const TOKEN_STEP = "auth › oauth2 token";

/**
 * The name of an entry: a token request, a device code's poll answered "ask
 * again" (`auth › oauth2 token (authorization_pending)`), or RFC 8628's
 * device authorization request.
 *
 * @example
 * ```ts
 * import { exchangeName } from "./auth_steps.ts";
 * const poll = { url: "http://idp.test/token", grant: "g", status: 400, durationMs: 1, pending: "slow_down" };
 * if (exchangeName(poll) !== "auth › oauth2 token (slow_down)") throw new Error();
 * ```
 */
export function exchangeName(exchange: TokenExchange): string {
  if (exchange.endpoint === "device_authorization") return "auth › oauth2 device authorization";
  return exchange.pending ? `${TOKEN_STEP} (${exchange.pending})` : TOKEN_STEP;
}

/**
 * A token request as a step result of the flow that made it: `passed` when
 * a token came of it, else `error` with why.
 *
 * @example
 * ```ts
 * import { exchangeResult } from "./auth_steps.ts";
 * // deno-lint-ignore no-explicit-any
 * const step = { name: "get", line: 3, column: 5 } as any;
 * const r = exchangeResult({ url: "http://idp.test/token", grant: "client_credentials", status: 200, durationMs: 2 }, step, 0);
 * if (r.name !== "auth › oauth2 token" || r.status !== "passed" || r.attempts !== 1) throw new Error();
 * ```
 */
export function exchangeResult(
  exchange: TokenExchange,
  step: Step,
  startMs: number,
  place: { file?: string; line: number; column: number } = step,
): StepResult {
  const { url, status, durationMs, error } = exchange;
  return {
    name: exchangeName(exchange),
    status: error === undefined ? "passed" : "error",
    start_ms: startMs,
    duration_ms: durationMs,
    attempts: 1,
    line: place.line,
    column: place.column,
    ...(place.file === undefined ? {} : { file: place.file }),
    request: { method: "POST", url },
    response: status === undefined ? null : { status },
    assertions: [],
    captures: [],
    ...(error === undefined ? {} : { message: error, failure_kind: "request" as const }),
  };
}

/**
 * The token requests a step's auth made, each an entry of the flow's results
 * just before the step's own (`r`), so request counts stay honest.
 *
 * @example
 * ```ts
 * import { recordExchanges } from "./auth_steps.ts";
 * import { Redactor } from "../secrets/mod.ts";
 * import type { StepResult } from "../model/result.ts";
 * const walk = { ref: { file: "f.yaml", name: "f" }, started: 0, results: [] as StepResult[], maskedAt: [] as number[] };
 * const exchanges = [{ url: "http://idp.test/token", grant: "password", status: 200, durationMs: 1 }];
 * // deno-lint-ignore no-explicit-any
 * const input = { step: { name: "s", line: 1, column: 1 }, exchanges } as any;
 * // deno-lint-ignore no-explicit-any
 * await recordExchanges(input, { start_ms: 0 } as any, { level: { prefix: "" }, walk, ctx: { reporter: {}, redactor: new Redactor() } as any });
 * if (walk.results[0].name !== "auth › oauth2 token") throw new Error();
 * ```
 */
export async function recordExchanges(
  input: StepInput,
  r: StepResult,
  at: { level: Level; walk: Walk; ctx: Context },
): Promise<void> {
  const place = blockOf(input, at.ctx, at.walk.ref.file);
  for (const exchange of input.exchanges ?? []) {
    const entry = exchangeResult(exchange, input.step, r.start_ms ?? 0, place);
    // Why the token request failed may quote what the server said: masked here, value by value
    // when told so (else whole, as a value), since the reports keep it as flowrun's words.
    if (entry.message !== undefined) {
      entry.message = exchange.told
        ? tell(exchange.told, at.ctx.redactor)
        : at.ctx.redactor.redact(entry.message);
    }
    await record(entry, at.level, at.walk, at.ctx);
  }
}

/**
 * Where the OAuth2 block that made a step's token requests is written: the
 * auth file's `oauth2:` (its path given, as it is not the flow's), the
 * flow's or the step's; the step itself when the block's place is unknown.
 */
function blockOf(
  input: StepInput,
  ctx: Context,
  flowFile: string,
): { file?: string; line: number; column: number } {
  // As effectiveAuth reads it; a step given without its scope has only its own and the run's.
  const auth = input.step.auth ?? (input.scope as WithAuth | undefined)?.inherited ?? ctx.auth;
  const at = auth?.kind === "oauth2" ? auth.at : undefined;
  if (!at) return input.step;
  return at.file === flowFile ? { line: at.line, column: at.column } : at;
}

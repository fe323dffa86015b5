/**
 * What every level of the runner shares for one run (options made concrete,
 * the reporter, the redactor and the budget for detailed failures), and what
 * one step runs with ({@linkcode StepInput}).
 *
 * @module
 */
import type { Deadlines } from "../http/deadlines.ts";
import type { CookieJar } from "../http/cookie_jar.ts";
import type { Scope } from "../expr/template.ts";
import type { Step } from "../model/flow.ts";
import type { Auth } from "../model/auth.ts";
import type { TokenCache, TokenExchange } from "../http/token_cache.ts";
import type { FlowRef, Reporter } from "../model/events.ts";
import type { Redactor } from "../secrets/mod.ts";
import type { CoverageCollector } from "./coverage.ts";
import type { SecretInputs } from "../secrets/discover.ts";

/**
 * The run as each level sees it.
 *
 * @example
 * ```ts
 * import type { Context } from "./context.ts";
 * import { makeContext } from "./make_context.ts";
 * const ctx: Context = makeContext({ runId: "r" });
 * ctx.deadlines?.close();
 * if (ctx.runId !== "r") throw new Error();
 * ```
 */
export interface Context {
  /** Reads an environment variable, registering a secret one's value. */
  env: (name: string) => string | undefined;
  /** Run parameters (`--var`). */
  params: ReadonlyMap<string, string>;
  /** The run id behind `${RUN_ID}`. */
  runId: string;
  /** Per-request timeout, unless a step sets its own. */
  timeoutMs: number;
  /** See `RunOptions.maxBodyBytes`. */
  maxBodyBytes?: number;
  /** See `RunOptions.bodyMemoryBytes`. */
  bodyMemoryBytes?: number;
  /** Hears the run's events (queued, when the reporter may overlap requests). */
  reporter: Reporter;
  /** Interrupts the run (or, for cleanup after an interrupt, its grace period). */
  signal?: AbortSignal;
  /** The run's secrets: every result and event is masked by it (events: unless `rawEvents`). */
  redactor: Redactor;
  /** Events keep raw values: the caller masks each output as it writes it (`RunOptions.rawEvents`). */
  rawEvents?: boolean;
  /** How many steps that did not pass have kept their details so far (see DETAILED_FAILURES). */
  detailed: number;
  /**
   * That count while the run's flows are on several threads (`--workers`),
   * shared by them all (its first element), in place of `detailed`: one budget
   * for the run, as on one thread.
   */
  detailedShared?: Int32Array;
  /**
   * Registers a secret value with the redactor (and tells `onSecret`);
   * `shown` are public texts within it (see `Redactor.add`).
   */
  secret: (value: string, shown?: readonly string[]) => void;
  /** Send a W3C `traceparent` on requests that set none. */
  trace: boolean;
  /** See `RunOptions.secretVariables`. */
  secretVariables?: ReadonlyMap<string, string>;
  /** See `RunOptions.verbose`: which steps keep their exchange, and how much of bodies. */
  verbose?: number;
  /** `--cookie-jar`: every flow run keeps a cookie jar, whatever its options. */
  cookieJar?: boolean;
  /** See {@linkcode RunOptions}: the run's trusted CAs, client certificate and proxy. */
  network?: Network;
  /** See `RunOptions.coverage`: notes every response for the OpenAPI coverage. */
  coverage?: CoverageCollector;
  /** The run's request deadlines, on one timer; closed when the run ends. */
  deadlines?: Deadlines;
  /** With a queued reporter: settles when every event so far has been handled. */
  settle?: () => Promise<void>;
  /** `--auth-file`: the run's auth, for steps whose flow has none. */
  auth?: Auth;
  /** The run's OAuth2 tokens, shared by every flow and worker. */
  tokens?: TokenCache;
  /** See `RunOptions.notice`. */
  notice?: (line: string) => void;
}

/**
 * What one step runs with, in one object: the flow it belongs to, the step,
 * the scope its templates read, where its captures go, when its flow started
 * (its timings are relative to it), and what its flow sends in secret places.
 *
 * @example
 * ```ts
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
 * if (input.step.name !== "s") throw new Error();
 * ```
 */
export interface StepInput {
  /** The flow run the step belongs to, as events name it. */
  ref: FlowRef;
  /** The step. */
  step: Step;
  /** What its templates read: vars, earlier steps' captures, the environment. */
  scope: Scope;
  /** Where its captured values go. */
  captured: Map<string, unknown>;
  /** When its flow run started (`performance.now()`): its timings are relative to it. */
  flowStarted: number;
  /** What its flow sends in secret places, so captures feeding them are secret. */
  inputs: SecretInputs;
  /** The name its requests are reported under when not its own: a foreach iteration's. */
  label?: string;
  /** The token requests its auth made, reported before the step (see `auth_steps.ts`). */
  exchanges?: TokenExchange[];
}

/**
 * The auth the steps of an included flow inherit when they have none: the
 * include step's, else what its own flow's steps had.
 *
 * @example
 * ```ts
 * import type { WithAuth } from "./context.ts";
 * const scope: WithAuth = { inherited: { kind: "none" } };
 * if (scope.inherited?.kind !== "none") throw new Error();
 * ```
 */
export interface WithAuth {
  inherited?: Auth;
}

/**
 * How the run's requests reach servers, unless a flow's options say otherwise.
 *
 * @example
 * ```ts
 * import type { Network } from "./context.ts";
 * const network: Network = { proxy: "http://proxy.test:3128", noProxy: ["localhost"] };
 * if (network.noProxy?.[0] !== "localhost") throw new Error();
 * ```
 */
export interface Network {
  /** PEM certificates trusted besides the system's. */
  caCerts?: string[];
  /** A PEM client certificate and its key, for servers that require one (mutual TLS). */
  clientCert?: { cert: string; key: string };
  /** An `http://`, `https://` or `socks5://` proxy for every request. */
  proxy?: string;
  /** Hosts reached without the proxy: names, `.suffix` domains, or `*`. */
  noProxy?: string[];
  /** `--insecure`: do not check servers' TLS certificates. */
  insecure?: boolean;
}

/**
 * The cookie jar of a flow run, shared by its steps and its included flows' steps.
 *
 * @example
 * ```ts
 * import type { WithJar } from "./context.ts";
 * import { CookieJar } from "../http/cookie_jar.ts";
 * const scope: WithJar = { jar: new CookieJar(), jarOn: true };
 * if (!scope.jarOn) throw new Error();
 * ```
 */
export interface WithJar {
  /** The flow run's jar. */
  jar?: CookieJar;
  /** Whether the flow run uses its jar: the flow's `cookie_jar` option, or `--cookie-jar`. */
  jarOn?: boolean;
}

/**
 * How much of a body a failure message quotes.
 *
 * @example
 * ```ts
 * import { EXCERPT } from "./context.ts";
 * if (EXCERPT !== 300) throw new Error();
 * ```
 */
export const EXCERPT = 300;
/**
 * How much of each body a step that did not pass keeps, while the run's budget lasts.
 *
 * @example
 * ```ts
 * import { MAX_BODY } from "./context.ts";
 * if (MAX_BODY !== 64 * 1024) throw new Error();
 * ```
 */
export const MAX_BODY = 64 * 1024;
/**
 * How many steps that did not pass keep bodies of up to {@linkcode MAX_BODY};
 * later ones keep {@linkcode SMALL_BODY}, so a run where thousands of steps
 * fail against a large error page keeps memory and reports flat.
 *
 * @example
 * ```ts
 * import { DETAILED_FAILURES, SMALL_BODY } from "./context.ts";
 * if (DETAILED_FAILURES !== 100 || SMALL_BODY !== 2048) throw new Error();
 * ```
 */
export const DETAILED_FAILURES = 100;

/**
 * How much of each body a step that did not pass keeps once the run's
 * budget of {@linkcode DETAILED_FAILURES} is spent.
 *
 * @example
 * ```ts
 * import { SMALL_BODY } from "./context.ts";
 * if (SMALL_BODY !== 2 * 1024) throw new Error();
 * ```
 */
export const SMALL_BODY = 2 * 1024;

/**
 * Whether a step that did not pass keeps its details in full: one of the
 * run's first {@linkcode DETAILED_FAILURES} such steps, counted over every
 * thread of the run when it has several.
 *
 * @example
 * ```ts
 * import { DETAILED_FAILURES, keepsDetails } from "./context.ts";
 * const ctx = { detailed: DETAILED_FAILURES - 1 };
 * if (!keepsDetails(ctx) || keepsDetails(ctx)) throw new Error();
 * const shared = { detailed: 0, detailedShared: new Int32Array(new SharedArrayBuffer(4)).fill(DETAILED_FAILURES) };
 * if (keepsDetails(shared) || shared.detailed !== 0) throw new Error();
 * ```
 */
export function keepsDetails(ctx: Pick<Context, "detailed" | "detailedShared">): boolean {
  const count = ctx.detailedShared ? Atomics.add(ctx.detailedShared, 0, 1) : ctx.detailed++;
  return count < DETAILED_FAILURES;
}

/**
 * Milliseconds to one decimal, as results report them.
 *
 * @example
 * ```ts
 * import { round } from "./context.ts";
 * if (round(1.26) !== 1.3) throw new Error();
 * ```
 */
export const round = (ms: number) => Math.round(ms * 10) / 10;

/**
 * The trace and parent span ids of a W3C traceparent header, when it is well formed.
 *
 * @example
 * ```ts
 * import { traceContext } from "./context.ts";
 * const t = traceContext("00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01");
 * if (t?.span_id !== "b7ad6b7169203331" || traceContext("x") !== undefined) throw new Error();
 * ```
 */
export function traceContext(
  traceparent: string | undefined,
): { trace_id: string; span_id: string } | undefined {
  const match = traceparent &&
    /^[0-9a-f]{2}-([0-9a-f]{32})-([0-9a-f]{16})-[0-9a-f]{2}$/.exec(traceparent.trim());
  return match ? { trace_id: match[1], span_id: match[2] } : undefined;
}

/**
 * How long cleanup steps (`always: true`) may still run after the run was
 * interrupted, in milliseconds: their requests are abandoned past it.
 *
 * @example
 * ```ts
 * import { CLEANUP_GRACE_MS } from "./context.ts";
 * if (CLEANUP_GRACE_MS !== 10_000) throw new Error();
 * ```
 */
export const CLEANUP_GRACE_MS = 10_000;

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
import type { FlowRef, Reporter } from "../model/events.ts";
import type { Redactor } from "../secrets/mod.ts";
import type { SecretInputs } from "../secrets/discover.ts";

/** The run as each level sees it. */
export interface Context {
  env: (name: string) => string | undefined;
  params: ReadonlyMap<string, string>;
  runId: string;
  timeoutMs: number;
  maxBodyBytes?: number;
  bodyMemoryBytes?: number;
  reporter: Reporter;
  signal?: AbortSignal;
  redactor: Redactor;
  /** How many steps that did not pass have kept their details so far (see DETAILED_FAILURES). */
  detailed: number;
  /** Registers a secret value with the redactor (and tells `onSecret`). */
  secret: (value: string) => void;
  trace: boolean;
  /** See `RunOptions.secretVariables`. */
  secretVariables?: ReadonlyMap<string, string>;
  /** See `RunOptions.verbose`: which steps keep their exchange, and how much of bodies. */
  verbose?: number;
  /** `--cookie-jar`: every flow run keeps a cookie jar, whatever its options. */
  cookieJar?: boolean;
  /** See {@linkcode RunOptions}: the run's trusted CAs, client certificate and proxy. */
  network?: Network;
  /** The run's request deadlines, on one timer; closed when the run ends. */
  deadlines?: Deadlines;
  /** With a queued reporter: settles when every event so far has been handled. */
  settle?: () => Promise<void>;
}

/**
 * What one step runs with, in one object: the flow it belongs to, the step,
 * the scope its templates read, where its captures go, when its flow started
 * (its timings are relative to it), and what its flow sends in secret places.
 */
export interface StepInput {
  ref: FlowRef;
  step: Step;
  scope: Scope;
  captured: Map<string, unknown>;
  flowStarted: number;
  inputs: SecretInputs;
}

/** How the run's requests reach servers, unless a flow's options say otherwise. */
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

/** The cookie jar of a flow run, shared by its steps and its included flows' steps. */
export interface WithJar {
  jar?: CookieJar;
  /** Whether the flow run uses its jar: the flow's `cookie_jar` option, or `--cookie-jar`. */
  jarOn?: boolean;
}

/** How much of a body a failure message quotes. */
export const EXCERPT = 300;
/** How much of each body a step that did not pass keeps, while the run's budget lasts. */
export const MAX_BODY = 64 * 1024;
/**
 * How many steps that did not pass keep bodies of up to {@linkcode MAX_BODY};
 * later ones keep {@linkcode SMALL_BODY}, so a run where thousands of steps
 * fail against a large error page keeps memory and reports flat.
 */
export const DETAILED_FAILURES = 100;
export const SMALL_BODY = 2 * 1024;

/** Milliseconds to one decimal, as results report them. */
export const round = (ms: number) => Math.round(ms * 10) / 10;

/** The trace and parent span ids of a W3C traceparent header, when it is well formed. */
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

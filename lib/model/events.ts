/**
 * Run events: what a run tells its reporters, and the {@linkcode Reporter}
 * hooks that hear them. They live in the model, beside the result they end
 * with, so that the runner can send them without importing the reporters
 * (`report/` comes after `run/`).
 *
 * @module
 */
import type { FlowResult, RunResult, StepResult } from "./result.ts";

/** What is known when a run starts. */
export interface RunStart {
  /** The run id behind `${RUN_ID}`. */
  run_id: string;
  /** The flowrun version. */
  runner_version: string;
  /** ISO 8601 time the run started. */
  started_at: string;
  /** The flow files of the run, in run order. */
  files: string[];
}

/** Identifies a flow in events sent before its result exists. */
export interface FlowRef {
  /** The flow file, relative to the working directory. */
  file: string;
  /** The flow's name. */
  name: string;
  /** Which run of a re-run flow (`--retries`) the events are of, from 2; absent on the first. */
  attempt?: number;
}

/** A request about to be sent. */
export interface RequestInfo {
  /** The step's name. */
  step: string;
  /** 1 for the first request of a step; polled steps count up. */
  attempt: number;
  /** The HTTP method. */
  method: string;
  /** The resolved URL. */
  url: string;
  /** The W3C trace context the request carried, if any. */
  trace_id?: string;
  /** The parent span id the request carried. */
  span_id?: string;
}

/** What one request attempt ended with. */
export interface AttemptInfo extends RequestInfo {
  /** The response status; absent when no response arrived. */
  status?: number;
  /**
   * Why no response arrived (network failure, timeout): flowrun's words,
   * the values they quote (a URL) masked where the message was made, raw
   * events too.
   */
  error?: string;
  /** Time of this request alone. */
  duration_ms: number;
  /** For polled steps: whether every `until` condition held for this response. */
  until_met?: boolean;
}

/**
 * One request that went on the wire and what answered it, as sent and
 * received (for `--report-har`): each redirect hop, each poll and each
 * re-run's request is one. Bodies are cut at 64 KiB (`size` is the whole).
 */
export interface Exchange {
  /** The step's name. */
  step: string;
  /** The step's attempt (polled steps count up), as in {@linkcode RequestInfo}. */
  attempt: number;
  /** ISO 8601 time the request was sent. */
  started_at: string;
  /** Time to the whole response read, or to the failure. */
  duration_ms: number;
  /** The request as sent: a hop's own, with the cookies and credentials it carried. */
  request: {
    method: string;
    url: string;
    headers: [string, string][];
    /** The body as text, cut at 64 KiB (a multipart body as its fields, form-encoded). */
    body?: string;
    /** The body's whole size in bytes; -1 for a multipart body, which the client frames. */
    size: number;
    /** Set for a multipart or file body, whose `body` only describes it. */
    kind?: "multipart" | "file";
  };
  /** What answered; absent when nothing did. */
  response?: {
    status: number;
    /** Lower-case names; `set-cookie` lines are in `set_cookies`. */
    headers: Record<string, string>;
    set_cookies: string[];
    /** The body decoded as UTF-8, cut at 64 KiB. */
    body: string;
    /** The body's whole size in bytes; -1 when unknown (a binary body sent without a length). */
    size: number;
  };
  /** Why no response arrived. */
  error?: string;
}

/**
 * A set of optional hooks over run events. With several flows running at
 * once, events of different flows interleave; each names its flow. Every
 * value in an event is masked with the secrets the run knows when it is
 * sent, and the run's result with every secret of the run; unless the run
 * was given `rawEvents` (`RunOptions`), whose caller masks its outputs
 * itself: then events hold raw values.
 */
export interface Reporter {
  /** Called once, before any flow starts. */
  onRunStart?(run: RunStart): void | Promise<void>;
  /** Called when a flow starts (not for flows that are never run). */
  onFlowStart?(flow: FlowRef): void | Promise<void>;
  /** Called just before a request is sent. */
  onRequest?(flow: FlowRef, request: RequestInfo): void | Promise<void>;
  /** Called for each request on the wire (a redirect hop too) with what answered it. */
  onExchange?(flow: FlowRef, exchange: Exchange): void | Promise<void>;
  /** Called when a request got a response or failed. */
  onAttempt?(flow: FlowRef, attempt: AttemptInfo): void | Promise<void>;
  /** Called when a step ends (passed, failed, error or skipped). */
  onStepEnd?(flow: FlowRef, step: StepResult): void | Promise<void>;
  /** Called when a flow ends, in finishing order. */
  onFlowEnd?(flow: FlowResult): void | Promise<void>;
  /** Called once with the whole result, after every flow ended. */
  onRunEnd?(result: RunResult): void | Promise<void>;
}

/**
 * The hooks of a {@linkcode Reporter}, in the order a run calls them first.
 *
 * @example
 * ```ts
 * import { REPORTER_HOOKS } from "./events.ts";
 * if (REPORTER_HOOKS.at(-1) !== "onRunEnd") throw new Error();
 * ```
 */
export const REPORTER_HOOKS = [
  "onRunStart",
  "onFlowStart",
  "onRequest",
  "onExchange",
  "onAttempt",
  "onStepEnd",
  "onFlowEnd",
  "onRunEnd",
] as const;

/**
 * One hook of a {@linkcode Reporter}.
 *
 * @example
 * ```ts
 * import type { ReporterHook } from "./events.ts";
 * const hook: ReporterHook = "onStepEnd";
 * if (hook !== "onStepEnd") throw new Error();
 * ```
 */
export type ReporterHook = typeof REPORTER_HOOKS[number];

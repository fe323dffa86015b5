/**
 * Reporters: optional hooks over run events, as in Playwright. The runner
 * calls one reporter; {@linkcode combineReporters} fans each event out to
 * several (console, JUnit, JSON, log), in order, awaiting each.
 *
 * @module
 */
import type { FlowResult, RunResult, StepResult } from "../result.ts";

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
  /** Why no response arrived (network failure, timeout). */
  error?: string;
  /** Time of this request alone. */
  duration_ms: number;
  /** For polled steps: whether every `until` condition held for this response. */
  until_met?: boolean;
}

/**
 * A set of optional hooks over run events. With several flows running at
 * once, events of different flows interleave; each names its flow.
 */
export interface Reporter {
  /** Called once, before any flow starts. */
  onRunStart?(run: RunStart): void | Promise<void>;
  /** Called when a flow starts (not for flows that are never run). */
  onFlowStart?(flow: FlowRef): void | Promise<void>;
  /** Called just before a request is sent. */
  onRequest?(flow: FlowRef, request: RequestInfo): void | Promise<void>;
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
 * Combines reporters into one that calls each in the order given.
 *
 * @example
 * ```ts
 * import { combineReporters } from "./reporter.ts";
 * const seen: string[] = [];
 * const both = combineReporters(
 *   { onFlowStart: (f) => void seen.push(`a:${f.name}`) },
 *   { onFlowStart: (f) => void seen.push(`b:${f.name}`) },
 * );
 * await both.onFlowStart?.({ file: "x.yaml", name: "x" });
 * if (seen.join() !== "a:x,b:x") throw new Error(seen.join());
 * ```
 */
export function combineReporters(...reporters: Reporter[]): Reporter {
  return {
    async onRunStart(run) {
      for (const r of reporters) await r.onRunStart?.(run);
    },
    async onFlowStart(flow) {
      for (const r of reporters) await r.onFlowStart?.(flow);
    },
    async onRequest(flow, request) {
      for (const r of reporters) await r.onRequest?.(flow, request);
    },
    async onAttempt(flow, attempt) {
      for (const r of reporters) await r.onAttempt?.(flow, attempt);
    },
    async onStepEnd(flow, step) {
      for (const r of reporters) await r.onStepEnd?.(flow, step);
    },
    async onFlowEnd(flow) {
      for (const r of reporters) await r.onFlowEnd?.(flow);
    },
    async onRunEnd(result) {
      for (const r of reporters) await r.onRunEnd?.(result);
    },
  };
}

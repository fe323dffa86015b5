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
  run_id: string;
  runner_version: string;
  started_at: string;
  /** The flow files of the run, in run order. */
  files: string[];
}

/** Identifies a flow in events sent before its result exists. */
export interface FlowRef {
  file: string;
  name: string;
}

/** A request about to be sent. */
export interface RequestInfo {
  step: string;
  /** 1 for the first request of a step; polled steps count up. */
  attempt: number;
  method: string;
  url: string;
  /** The W3C trace context the request carried, if any. */
  trace_id?: string;
  span_id?: string;
}

/** What one request attempt ended with. */
export interface AttemptInfo extends RequestInfo {
  /** The response status; absent when no response arrived. */
  status?: number;
  /** Why no response arrived (network failure, timeout). */
  error?: string;
  duration_ms: number;
  /** For polled steps: whether every `until` condition held for this response. */
  until_met?: boolean;
}

/**
 * A set of optional hooks over run events. With several flows running at
 * once, events of different flows interleave; each names its flow.
 */
export interface Reporter {
  onRunStart?(run: RunStart): void | Promise<void>;
  onFlowStart?(flow: FlowRef): void | Promise<void>;
  onRequest?(flow: FlowRef, request: RequestInfo): void | Promise<void>;
  onAttempt?(flow: FlowRef, attempt: AttemptInfo): void | Promise<void>;
  onStepEnd?(flow: FlowRef, step: StepResult): void | Promise<void>;
  onFlowEnd?(flow: FlowResult): void | Promise<void>;
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

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

/** A set of optional hooks over run events. */
export interface Reporter {
  onRunStart?(run: RunStart): void | Promise<void>;
  onFlowStart?(flow: FlowRef): void | Promise<void>;
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

/**
 * Reports written flow by flow. A report file (JSON, JUnit, HTML) is a head,
 * one piece per flow and a tail; the head and tail hold the run's totals, so
 * they are known only at the end, but each flow's piece is rendered as soon
 * as the flow ends and can be set aside (a {@linkcode Spool}, a temporary
 * file in the CLI) instead of keeping the flow's whole result: memory stays
 * flat however long the suite. At the end the pieces are written in the
 * run's order, so the bytes are the same as rendering the whole result at
 * once ({@linkcode renderWhole}), which is what a library caller gets.
 *
 * @module
 */
import type { FlowResult, RunResult } from "../model/result.ts";
import type { Reporter, RunStart } from "./reporter.ts";

/** What a flow's piece may read of the run besides the flow: known when it starts. */
export type RunInfo = Pick<RunStart, "run_id" | "runner_version">;

/** A report format in pieces. */
export interface ReportFormat {
  /** Everything before the first flow's piece (`empty`: the run has no flow). */
  head(result: RunResult, empty: boolean): string;
  /** The part of a flow's piece that needs its whole result: rendered as the flow ends. */
  body(flow: FlowResult, run: RunInfo): string;
  /**
   * The flow's piece around its body, from what the run keeps of every flow
   * (status, counts, timings) and its place in the report (default: the body).
   */
  wrap?(flow: FlowResult, index: number, body: string): string;
  /** Between two flows' pieces. */
  separator: string;
  /** Everything after the last flow's piece. */
  tail(result: RunResult, empty: boolean): string;
}

/** Where flows' bodies wait for the end of the run. */
export interface Spool {
  /** Keeps `text` for `flow`. */
  put(flow: FlowResult, text: string): Promise<void>;
  /** The text kept for `flow` (once), or `undefined`. */
  take(flow: FlowResult): Promise<string | undefined>;
  /** Frees what is left. */
  close(): Promise<void>;
}

/**
 * The report as one string.
 *
 * @example
 * ```ts
 * import { renderWhole, type ReportFormat } from "./streamed.ts";
 * const list: ReportFormat = {
 *   head: (_, empty) => (empty ? "[" : "[\n"),
 *   body: (flow) => JSON.stringify(flow.name),
 *   separator: ",\n",
 *   tail: (_, empty) => (empty ? "]\n" : "\n]\n"),
 * };
 * const none = { total: 0, passed: 0, failed: 0, error: 0, skipped: 0 };
 * const result = {
 *   run_id: "r", runner_version: "0", started_at: "", duration_ms: 0, status: "passed" as const,
 *   totals: { flows: none, steps: none, assertions: { total: 0, passed: 0, failed: 0 } },
 *   flows: [{ file: "a.yaml", name: "a", status: "passed" as const, started_at: "", duration_ms: 1, steps: [] }],
 * };
 * if (renderWhole(list, result) !== '[\n"a"\n]\n') throw new Error();
 * ```
 */
export function renderWhole(format: ReportFormat, result: RunResult): string {
  const empty = result.flows.length === 0;
  const pieces = result.flows.map((flow, i) => piece(format, flow, i, format.body(flow, result)));
  return format.head(result, empty) + pieces.join(format.separator) + format.tail(result, empty);
}

function piece(format: ReportFormat, flow: FlowResult, index: number, body: string): string {
  return format.wrap ? format.wrap(flow, index, body) : body;
}

/**
 * A reporter that writes a report once the run has ended. With a spool,
 * each flow's body is rendered when the flow ends and kept there, and the
 * report is written piece by piece (`write` is called once per piece, in
 * order; the last call has `last` set); without one, it is rendered whole
 * at the end.
 *
 * @example
 * ```ts
 * import { streamedReporter, type ReportFormat, type Spool } from "./streamed.ts";
 * const names: ReportFormat = {
 *   head: () => "<",
 *   body: (flow) => flow.name,
 *   separator: ",",
 *   tail: () => ">",
 * };
 * const kept = new Map();
 * const spool: Spool = {
 *   put: async (flow, text) => void kept.set(flow, text),
 *   take: async (flow) => kept.get(flow),
 *   close: async () => kept.clear(),
 * };
 * let out = "";
 * const reporter = streamedReporter(names, async (text) => void (out += text), spool);
 * const flow = { file: "a.yaml", name: "a", status: "passed" as const, started_at: "", duration_ms: 1, steps: [] };
 * const none = { total: 0, passed: 0, failed: 0, error: 0, skipped: 0 };
 * await reporter.onRunStart?.({ run_id: "r", runner_version: "0", started_at: "", files: [] });
 * await reporter.onFlowEnd?.(flow);
 * flow.name = "changed after the flow ended";
 * await reporter.onRunEnd?.({
 *   run_id: "r", runner_version: "0", started_at: "", duration_ms: 0, status: "passed",
 *   totals: { flows: none, steps: none, assertions: { total: 0, passed: 0, failed: 0 } },
 *   flows: [flow],
 * });
 * if (out !== "<a>") throw new Error(out);
 * ```
 */
export function streamedReporter(
  format: ReportFormat,
  write: (text: string, last: boolean) => Promise<void>,
  spool?: Spool,
): Reporter {
  let run: RunInfo | undefined;
  return {
    onRunStart(start) {
      run = { run_id: start.run_id, runner_version: start.runner_version };
    },
    async onFlowEnd(flow) {
      if (spool && run) await spool.put(flow, format.body(flow, run));
    },
    async onRunEnd(result) {
      if (!spool) return await write(renderWhole(format, result), true);
      try {
        const empty = result.flows.length === 0;
        let pending = format.head(result, empty);
        for (const [i, flow] of result.flows.entries()) {
          const body = await spool.take(flow) ?? format.body(flow, result);
          const text = piece(format, flow, i, body);
          // One write per flow, head and separators included, so each piece is redacted whole.
          await write(pending, false);
          pending = (i > 0 ? format.separator : "") + text;
        }
        await write(pending + format.tail(result, empty), true);
      } finally {
        await spool.close();
      }
    },
  };
}

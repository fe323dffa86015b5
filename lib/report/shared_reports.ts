/**
 * The report files of one run (JSON, JUnit, HTML) written from one spool of
 * masked flows, for a run whose events are raw (`RunOptions.rawEvents`).
 * As each flow ends, its result is masked once (`FlowMasks`, shared with
 * the console) and set aside as JSON: the spool is a file, so it holds
 * nothing the redactor knew of. At the end of the run, when every secret of
 * the run is known, each flow is read back, its text is masked once more
 * (a secret a later flow met), and every report renders its piece from that
 * one masked result: each flow is masked twice in all, where rendering each
 * report's piece and masking each piece's text masked it once per report.
 * The bytes are those of {@linkcode streamedReporter} (see `streamed.ts`).
 *
 * @module
 */
import type { Reporter } from "../model/events.ts";
import type { FlowResult, RunResult } from "../model/result.ts";
import type { Redactor } from "../secrets/redactor.ts";
import { saidSince, toldSince } from "../secrets/said_since.ts";
import type { FlowMasks } from "./flow_masks.ts";
import type { ReportFormat, RunInfo, Spool } from "./streamed.ts";

/** One report file among those written together. */
export interface ReportOutput {
  format: ReportFormat;
  /** Writes the next piece, already masked; `last` on the last one. */
  write(text: string, last: boolean): Promise<void>;
  /** This report could not be made or written: it stops, the others go on. */
  fail(error: unknown): Promise<void>;
}

/**
 * A reporter writing `outputs` at the end of the run from the flows
 * `spool` keeps, each masked by `masks` as it ended and again when read
 * back. A report that fails stops alone.
 *
 * @example
 * ```ts
 * import { sharedReports } from "./shared_reports.ts";
 * import { FlowMasks } from "./flow_masks.ts";
 * import { Redactor } from "../secrets/redactor.ts";
 * import type { ReportFormat, Spool } from "./streamed.ts";
 * const redactor = new Redactor();
 * const kept = new Map();
 * const spool: Spool = {
 *   put: async (flow, text) => void kept.set(flow, text),
 *   take: async (flow) => kept.get(flow),
 *   close: async () => kept.clear(),
 * };
 * const names: ReportFormat = { head: () => "<", body: (flow) => flow.name, separator: ",", tail: () => ">" };
 * let out = "";
 * const output = { format: names, write: async (text: string) => void (out += text), fail: async () => {} };
 * const reporter = sharedReports([output], spool, new FlowMasks(redactor));
 * const flow = { file: "a.yaml", name: "a tok-1234", status: "passed" as const, started_at: "", duration_ms: 1, steps: [] };
 * const none = { total: 0, passed: 0, failed: 0, error: 0, skipped: 0 };
 * await reporter.onRunStart?.({ run_id: "r", runner_version: "0", started_at: "", files: [] });
 * await reporter.onFlowEnd?.(flow);
 * redactor.add("tok-1234"); // learnt by a later flow
 * await reporter.onRunEnd?.({
 *   run_id: "r", runner_version: "0", started_at: "", duration_ms: 0, status: "passed",
 *   totals: { flows: none, steps: none, assertions: { total: 0, passed: 0, failed: 0 } },
 *   flows: [flow],
 * });
 * if (out !== "<a ***>") throw new Error(out);
 * ```
 */
export function sharedReports(
  outputs: readonly ReportOutput[],
  spool: Spool,
  masks: FlowMasks,
): Reporter {
  let run: RunInfo | undefined;
  return {
    onRunStart(start) {
      run = { run_id: start.run_id, runner_version: start.runner_version };
    },
    async onFlowEnd(flow) {
      if (run) await spool.put(flow, masks.json(flow));
    },
    async onRunEnd(result) {
      try {
        await writeAll([...outputs], result, spool, masks.redactor);
      } finally {
        await spool.close();
      }
    },
  };
}

/** A report being written: what waits to go with the next write. */
interface Going {
  output: ReportOutput;
  pending: string;
}

/** Every report, flow by flow: one masked result read back per flow, a piece per report. */
async function writeAll(
  outputs: readonly ReportOutput[],
  result: RunResult,
  spool: Spool,
  redactor: Redactor,
): Promise<void> {
  const empty = result.flows.length === 0;
  const live: Going[] = outputs.map((output) => ({ output, pending: "" }));
  // What the run says of itself (totals, coverage, problems) is masked value by value, before it
  // is written: masked as text, a secret equal to a number of it left a bare *** in JSON.
  const { flows, ...own } = result;
  const outer: RunResult = { ...redactor.redactValue(own), flows };
  await each(live, (g) => void (g.pending = g.output.format.head(outer, empty)));
  for (const [i, kept] of result.flows.entries()) {
    const flow = await readBack(kept, spool, redactor);
    // One write per flow and report, head and separators included, as streamed.ts writes them.
    await each(live, async (g) => {
      const { format } = g.output;
      const body = format.body(flow, result);
      const text = format.wrap ? format.wrap(kept, i, body) : body;
      await g.output.write(g.pending, false);
      g.pending = (i > 0 ? format.separator : "") + text;
    });
  }
  await each(live, (g) => {
    const tail = g.output.format.tail(outer, empty);
    return g.output.write(g.pending + tail, true);
  });
}

/**
 * A flow's result as it ended, masked then and now: its spooled JSON is
 * read once and masked with every secret of the run; a flow the spool does
 * not hold is rendered from what the run kept of it (masked by the run).
 */
async function readBack(kept: FlowResult, spool: Spool, redactor: Redactor): Promise<FlowResult> {
  const text = await spool.take(kept);
  if (text === undefined) return kept;
  const flow = JSON.parse(text) as FlowResult;
  // Its messages also by the short secrets learnt since they were made (a later flow's).
  return redactor.redact(text) === text
    ? flow
    : redactor.redactValue(flow, saidSince(redactor, toldSince(kept)));
}

/** Calls `f` for each report still going; one that throws is failed and dropped. */
async function each(live: Going[], f: (going: Going) => void | Promise<void>): Promise<void> {
  for (let at = 0; at < live.length;) {
    try {
      await f(live[at]);
      at++;
    } catch (error) {
      const [gone] = live.splice(at, 1);
      await gone.output.fail(error);
    }
  }
}

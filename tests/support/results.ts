/** Building run results for report tests. */
import { type FlowResult, type RunResult, totalsOf } from "../../lib/model/result.ts";

/** A run result around some flows, with fixed run facts so output is reproducible. */
export function run(flows: FlowResult[], duration_ms = 2345.4): RunResult {
  return {
    run_id: "20250301-101500-a1b2c3",
    runner_version: "0.1.0",
    started_at: "2025-03-01T10:15:00.000Z",
    duration_ms,
    status: flows.every((f) => f.status === "passed") ? "passed" : "failed",
    totals: totalsOf(flows),
    flows,
  };
}

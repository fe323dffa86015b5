/**
 * Merging the JSON reports of a sharded run (`flowrun merge`) into one run
 * result, from which the usual JUnit and JSON reports are written, so CI sees
 * one run however many machines ran it.
 *
 * Pure: the CLI reads the files and passes their text in.
 *
 * @module
 */
import { UsageError } from "../model/errors.ts";
import { type FlowResult, type RunResult, totalsOf } from "../model/result.ts";
import { compareCodePoints } from "../_util/compare.ts";
import { checkReportShape, Mismatch, REPORT_HINT } from "./report_shape.ts";
import { checkCoverageShape, mergeCoverage } from "./merge_coverage.ts";

function badReport(label: string, reason: string, hint = REPORT_HINT): UsageError {
  return new UsageError("bad-report", `"${label}" is not a flowrun JSON report: ${reason}.`, hint);
}

/**
 * Parses the text of a JSON report (`--report-json`) and checks its shape:
 * `schema_version` must be 1 and the fields of a run result must be present
 * with the right basic types. Returns the run result without
 * `schema_version`; fields this version does not know are kept.
 *
 * Throws {@linkcode UsageError} (`bad-report`):
 * `"<label>" is not a flowrun JSON report: <reason>.`, where the reason names
 * the first wrong field by its path (`flows[2].steps[0].status must be one of
 * …`), and `label` is how the caller names the input (the file name).
 *
 * @example
 * ```ts
 * import { parseJsonReport } from "./merge.ts";
 * const none = { total: 0, passed: 0, failed: 0, error: 0, skipped: 0 };
 * const text = JSON.stringify({
 *   schema_version: 1, run_id: "r1", runner_version: "0.1.0",
 *   started_at: "2025-03-01T10:15:00.000Z", duration_ms: 0, status: "passed",
 *   totals: { flows: none, steps: none, assertions: { total: 0, passed: 0, failed: 0 } },
 *   flows: [],
 * });
 * const result = parseJsonReport(text, "shard-1.json");
 * if (result.run_id !== "r1" || "schema_version" in result) throw new Error();
 * try {
 *   parseJsonReport('{"schema_version": 2}', "new.json");
 *   throw new Error("accepted version 2");
 * } catch (error) {
 *   const expected = '"new.json" is not a flowrun JSON report: schema_version is 2, but this flowrun reads version 1.';
 *   if ((error as Error).message !== expected) throw error;
 * }
 * ```
 */
export function parseJsonReport(text: string, label: string): RunResult {
  if (text.trim() === "") throw badReport(label, "the file is empty");
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw badReport(label, `it is not valid JSON (${(error as Error).message})`);
  }
  try {
    checkReportShape(value);
    checkCoverageShape((value as { openapi_coverage?: unknown }).openapi_coverage);
  } catch (error) {
    if (error instanceof Mismatch) throw badReport(label, error.message, error.hint);
    // A checker bug must still not crash the CLI on a file someone crafted.
    throw badReport(label, `it could not be checked (${(error as Error)?.message ?? error})`);
  }
  const { schema_version: _, ...result } = value as RunResult & { schema_version: number };
  return result;
}

/**
 * Merges the results of the shards of one run into the result of the whole
 * run, as if one machine had run every flow:
 *
 * - `flows`: every input's flows, sorted by file path in code-point order
 *   (the order of an unsharded run). A flow file in two inputs is a
 *   {@linkcode UsageError} (`duplicate-flow`) naming the file and both
 *   labels: shards are disjoint, so a duplicate means the same report was
 *   passed twice or reports of different runs were mixed.
 * - `run_id`: the common run id when all inputs agree (shards of one CI run
 *   should share `--run-id`); otherwise the distinct run ids in input order
 *   joined with `+`, which cannot occur inside a run id, so the merged report
 *   still says which runs went into it.
 * - `runner_version`: the first input's. Shards of one pipeline may differ
 *   only if the runner was upgraded mid-pipeline; the reports stay
 *   mergeable (the format is versioned by `schema_version`), so this does
 *   not fail.
 * - `started_at`: the earliest start, as that input wrote it; `duration_ms`:
 *   from the earliest start to the latest end (`started_at + duration_ms`)
 *   of any input, rounded to 0.1 ms: the wall time of the whole run, not the
 *   sum of the shards' times.
 * - `status`: `passed` only when every flow passed; `totals`: recounted
 *   from the flows with {@linkcode totalsOf} rather than added up, so they
 *   always agree with the flows.
 * - `interrupted`: the first interrupted input's signal, so the merged run
 *   still shows that some flows did not finish.
 * - `problems`: every input's flow-file problems, in input order, so a
 *   shard that sent nothing still says why in the merged report.
 *
 * Does not change its inputs. Throws {@linkcode UsageError}: `no-reports`
 * for no input, `bad-report` for a `started_at` that is not a time.
 *
 * @example
 * ```ts
 * import { mergeResults } from "./merge.ts";
 * import { totalsOf, type FlowResult, type RunResult } from "../model/result.ts";
 * const shard = (file: string, started_at: string, duration_ms: number): RunResult => {
 *   const flows: FlowResult[] = [{ file, name: file, status: "passed", started_at, duration_ms, steps: [] }];
 *   return { run_id: "R1", runner_version: "0.1.0", started_at, duration_ms, status: "passed", totals: totalsOf(flows), flows };
 * };
 * const merged = mergeResults([
 *   { label: "shard-2.json", result: shard("b.yaml", "2025-03-01T10:15:00.500Z", 1000) },
 *   { label: "shard-1.json", result: shard("a.yaml", "2025-03-01T10:15:00.000Z", 250) },
 * ]);
 * if (merged.flows.map((f) => f.file).join() !== "a.yaml,b.yaml") throw new Error();
 * if (merged.started_at !== "2025-03-01T10:15:00.000Z" || merged.duration_ms !== 1500) throw new Error();
 * if (merged.run_id !== "R1" || merged.totals.flows.passed !== 2) throw new Error();
 * ```
 */
export function mergeResults(results: readonly { label: string; result: RunResult }[]): RunResult {
  if (results.length === 0) {
    throw new UsageError(
      "no-reports",
      "No reports to merge.",
      "Usage: flowrun merge <report.json>... --report-json FILE",
    );
  }
  const owner = new Map<string, { label: string; report: number }>();
  const flows: FlowResult[] = [];
  for (const [report, { label, result }] of results.entries()) {
    for (const flow of result.flows) {
      const other = owner.get(flow.file)?.label;
      // The rows of a data-driven flow are several results of one file, in one report.
      if (other !== undefined && owner.get(flow.file)!.report !== report) {
        throw new UsageError(
          "duplicate-flow",
          `Flow "${flow.file}" is in both "${other}" and "${label}".`,
          "Shards are disjoint: pass each shard's report once, all from the same run " +
            "(same paths and the same N in --shard I/N).",
        );
      }
      owner.set(flow.file, { label, report });
      flows.push(flow);
    }
  }
  flows.sort((a, b) => compareCodePoints(a.file, b.file));

  let first: { at: number; text: string } | undefined;
  let end = -Infinity;
  for (const { label, result } of results) {
    const at = Date.parse(result.started_at);
    if (Number.isNaN(at)) {
      throw badReport(
        label,
        `started_at must be an ISO 8601 date-time, got "${result.started_at}"`,
      );
    }
    if (first === undefined || at < first.at) first = { at, text: result.started_at };
    end = Math.max(end, at + result.duration_ms);
  }

  const runIds = [...new Set(results.map((r) => r.result.run_id))];
  const interrupted = results.find((r) => r.result.interrupted !== undefined)?.result.interrupted;
  const problems = results.flatMap((r) => r.result.problems ?? []);
  const coverage = mergeCoverage(results.map((r) => r.result.openapi_coverage));
  return {
    run_id: runIds.join("+"),
    runner_version: results[0].result.runner_version,
    started_at: first!.text,
    duration_ms: Math.round((end - first!.at) * 10) / 10,
    status: flows.every((f) => f.status === "passed") ? "passed" : "failed",
    ...(interrupted !== undefined ? { interrupted } : {}),
    ...(problems.length > 0 ? { problems } : {}),
    totals: totalsOf(flows),
    ...(coverage ? { openapi_coverage: coverage } : {}),
    flows,
  };
}

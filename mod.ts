/**
 * flowrun as a library: load YAML API test flows, run them, and turn the
 * result into reports. The `flowrun` command line is a thin layer over these.
 *
 * @example
 * ```ts
 * import { loadFlow, runFlows, toJUnitXml } from "./mod.ts";
 * const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, () => Response.json({ ok: true }));
 * const { flow, problems } = loadFlow(
 *   `name: health\nsteps:\n  - name: ping\n    request: {url: "http://127.0.0.1:${server.addr.port}/"}\n    assert: {status: 200}\n`,
 *   "health.yaml",
 * );
 * if (!flow) throw new Error(problems.map((p) => p.message).join("\n"));
 * const result = await runFlows([flow]);
 * await server.shutdown();
 * if (result.status !== "passed" || !toJUnitXml(result).includes('name="ping"')) throw new Error();
 * ```
 *
 * @module
 */
// @ts-types="npm:json-p3@2.3.1"
import * as jsonP3 from "json-p3";
import { yamlEngine } from "./lib/load/yaml_engine.ts";
import { pathEngine } from "./lib/expr/path_engine.ts";
import { KINDS } from "./lib/kinds/mod.ts";

// The synchronous loadFlow may meet YAML only the full parser reads, a JSONPath only json-p3
// compiles, or a step whose kind reads with a module it loads on demand (gRPC's .proto files,
// protobufjs); the CLI loads those on demand to start faster, a library gets them up front.
await yamlEngine.load();
for (const kind of KINDS) await kind.prepare?.();
pathEngine.use(jsonP3);

export { loadFlow, type LoadOptions, type LoadResult } from "./lib/load/load_flow.ts";
export { type FlowrunOptions, loadFlows, runFlows } from "./lib/api.ts";
export type { LoadFlowsResult } from "./lib/load/suite.ts";
export type { ByteSpill } from "./lib/model/spill.ts";
export type { FileRoots } from "./lib/io/file_roots.ts";
export { parseShard, selectShard, type Shard, shardFromEnv } from "./lib/select/shard.ts";
export { matchesFilter } from "./lib/select/filter.ts";
export { mergeResults, parseJsonReport } from "./lib/run/merge.ts";
export {
  isSecretCaptureName,
  isSecretHeader,
  isSecretKey,
  isSecretName,
  MASK,
  Redactor,
} from "./lib/secrets/mod.ts";
export { runFlow } from "./lib/run/flows.ts";
export { DEFAULT_TIMEOUT_MS, newRunId, type RunOptions } from "./lib/run/options.ts";
export type { Network } from "./lib/run/context.ts";
export type { RunWorkers } from "./lib/run/workers/plan.ts";
export { CoverageCollector, type CoverageDocument } from "./lib/run/coverage.ts";
export type { CoverageShare, OpenApiCoverage, OperationCoverage } from "./lib/model/coverage.ts";
export type { ErrorKind, LatencyStats, LatencySummary, StepLatency } from "./lib/model/latency.ts";
export {
  type FlowHistory,
  History,
  type Outcome as HistoryOutcome,
  type PastRun,
} from "./lib/report/history.ts";
export { FlowLoadError, type Problem, type Span, UsageError } from "./lib/model/errors.ts";
export {
  type DataRow,
  type Flow,
  type Operator,
  OPERATORS,
  type Step,
  TYPE_NAMES,
} from "./lib/model/flow.ts";
export {
  type AssertionResult,
  type CaptureFailure,
  type Counts,
  type FlowAttempt,
  type FlowCounts,
  type FlowResult,
  type RunResult,
  type Status,
  type StepResult,
  totalsOf,
} from "./lib/model/result.ts";
export {
  type AttemptInfo,
  combineReporters,
  type Exchange,
  type FlowRef,
  type Reporter,
  type RequestInfo,
  type RunStart,
} from "./lib/report/reporter.ts";
export {
  type ConsoleMode,
  type ConsoleOptions,
  consoleReporter,
  type FlowFormat,
  formatProblems,
  type Style,
} from "./lib/report/console.ts";
export { type JUnitOptions, junitReporter, toJUnitXml } from "./lib/report/junit.ts";
export {
  renderWhole,
  type ReportFormat,
  type RunInfo,
  type Spool,
  streamedReporter,
} from "./lib/report/streamed.ts";
export {
  type JsonReport,
  jsonReporter,
  REPORT_SCHEMA_VERSION,
  toJsonReport,
} from "./lib/report/json.ts";
export { type LineSink, type LogOptions, logReporter } from "./lib/report/log.ts";
export type { LogMasking } from "./lib/report/log_lines.ts";
export { type HtmlOptions, htmlReporter, toHtml } from "./lib/report/html.ts";
export {
  buildManifest,
  type CiProvenance,
  ciProvenance,
  type Manifest,
  MANIFEST_VERSION,
  type ManifestFlow,
  type ManifestInput,
  manifestText,
  type RunFacts,
} from "./lib/report/manifest.ts";
export {
  convertHar,
  type ConvertOptions,
  type ConvertResult,
  type ConvertSummary,
  formatSummary as formatConvertSummary,
} from "./lib/convert/har.ts";
export type { OwnDropped } from "./lib/convert/dropped.ts";
export type {
  Decision as TwoRecordingsDecision,
  TwoRecordingsSummary,
} from "./lib/convert/two_recordings_correlate.ts";
export { VERSION } from "./lib/model/version.ts";

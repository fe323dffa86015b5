/**
 * The report stage: takes the events of a run and its result, gives what
 * people and tools read — the console (flow blocks, step details, the
 * progress line, a recap and the summary), the structured log, and the
 * JUnit, JSON, HTML, GitLab code quality and GitHub Actions reports, and the
 * run manifest.
 *
 * - `reporter.ts`: {@linkcode combineReporters}, the multiplexer the run
 *   talks to; one reporter that fails stops no other. The hook interface
 *   itself is `model/events.ts`, so the runner need not import this stage.
 * - The console: `console.ts` (flows and the summary) → `console_step.ts`
 *   (the lines under a step, one section each) → `console_body.ts` (bodies);
 *   `progress.ts` (the terminal's status line), `problems.ts` (flow-file
 *   problems like compiler errors), `style.ts` (colours), `terminal.ts`
 *   (what a terminal or a CI log must not act on); `console_rerun.ts`
 *   (re-run and flaky flows), `console_history.ts` (the streaks of
 *   `history.ts`, which reads earlier reports for them and for `html.ts`).
 * - Files: `streamed.ts` writes a report piece by piece as flows end, for
 *   `json.ts`, `junit.ts` and `html.ts` (the page's top in `html_page.ts`,
 *   its style and script in `html_assets/`); `log.ts` (NDJSON),
 *   `codequality.ts`, `github.ts`, `manifest.ts` (with `ci_provenance.ts`),
 *   `failures.ts` (the failures every report lists).
 * - Masking at the outputs, for a run whose events are raw
 *   (`RunOptions.rawEvents`, the CLI's): `flow_masks.ts` masks each ended
 *   flow once for every reporter that reads it whole (the console, the
 *   reports); `shared_reports.ts` writes the JSON, JUnit and HTML reports
 *   together at the end of the run from one spool of masked flows, each
 *   read back once and masked again with every secret of the run; the log
 *   masks its lines itself (`LogOptions.redactor`).
 *
 * A new reporter is a module here implementing the hooks it needs, added to
 * the list the CLI combines (`cli/run/artifacts.ts`).
 *
 * Other stages import the file they need (the CLI imports the file reports
 * on demand, so a run without them never loads them): this face imports
 * every part eagerly.
 *
 * @example
 * ```ts
 * import { combineReporters, consoleReporter } from "./mod.ts";
 * let out = "";
 * const reporter = combineReporters(consoleReporter({ write: (t) => void (out += t), color: false }));
 * await reporter.onRunStart?.({ run_id: "r1", runner_version: "0.1.0", started_at: "", files: [] });
 * if (!out.startsWith("flowrun 0.1.0 · run r1 · 0 flows")) throw new Error(out);
 * ```
 *
 * @module
 */
export {
  type AttemptInfo,
  combineReporters,
  type Exchange,
  type FlowRef,
  type Reporter,
  REPORTER_HOOKS,
  ReporterErrors,
  type RequestInfo,
  type RunStart,
} from "./reporter.ts";
export {
  type ConsoleMode,
  type ConsoleOptions,
  consoleReporter,
  type FlowFormat,
  formatFlow,
  formatFlowLine,
  formatRecap,
  formatSummary,
} from "./console.ts";
export { formatProblems } from "./problems.ts";
export { type Style, style } from "./style.ts";
export { inertForCi, visible } from "./terminal.ts";
export { eachStepFailure, type StepFailure, stepFailures } from "./failures.ts";
export {
  type FlowHistory,
  History,
  type Outcome,
  outcomeOf,
  type PastRun,
  pastRun,
} from "./history.ts";
export { renderWhole, type ReportFormat, type Spool, streamedReporter } from "./streamed.ts";
export { JSON_FORMAT, type JsonReport, jsonReporter, toJsonReport } from "./json.ts";
export { junitFormat, type JUnitOptions, junitReporter, toJUnitXml } from "./junit.ts";
export { htmlFormat, type HtmlOptions, htmlReporter, toHtml } from "./html.ts";
export { type LineSink, type LogOptions, logReporter } from "./log.ts";
export type { LogMasking } from "./log_lines.ts";
export { FlowMasks } from "./flow_masks.ts";
export { type ReportOutput, sharedReports } from "./shared_reports.ts";
export { type CodeQualityIssue, codeQualityReporter, toCodeQuality } from "./codequality.ts";
export { githubAnnotations, githubProblemAnnotations, githubSummary } from "./github.ts";
export {
  buildManifest,
  type CiProvenance,
  ciProvenance,
  type Manifest,
  type ManifestInput,
  manifestText,
  sha256Hex,
} from "./manifest.ts";

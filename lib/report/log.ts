/**
 * The structured log (`--log-file FILE`): one JSON object per line (NDJSON),
 * written while the run goes, a flow's lines together when that flow ends, so
 * a log can be followed with `tail -f` or filtered with `jq`.
 *
 * ## Lines
 *
 * Every line is one JSON object without spacing, ending with `\n`. Every line
 * starts with the same keys, in this order:
 *
 * - `event`: what happened (the list below)
 * - `ts`: when the event happened, ISO 8601 UTC (`2025-03-01T10:15:00.123Z`)
 * - `run_id`: the run id; `null` only when the runner never announced a run
 *   (a single flow run through the library's `runFlow`)
 * - `file`: the flow file, on every line about a flow
 * - `step`: the step name, on every line about a step
 *
 * The event's own keys follow, in the order listed below. Keys marked `?`
 * are left out when they do not apply (as in the JSON report); every other
 * key is always present.
 *
 * - `run_start`: `runner_version`, `started_at`, `files` (the number of
 *   flow files)
 * - `flow_start`: `name` (the flow's name)
 * - `flow_attempt`: on every line of a flow's re-run (`--retries`), which
 *   run it is, from 2 (absent on the first run); `flow_end` of a re-run flow
 *   has `flow_attempts` (how many runs) and `flaky: true` when it passed on one
 * - `request`: `attempt`, `method`, `url`, and `trace_id`, `span_id` when it carries a W3C `traceparent`
 * - `response`: `attempt`, `status`, `duration_ms`, `until_met?`
 * - `request_error`: `attempt`, `error`, `duration_ms`
 * - `assertion`: `phase`, `path`, `operator`, `passed`, `message`,
 *   `expected`, `actual`, `found`, `line`, `column`
 * - `step_end`: `status`, `duration_ms`, `attempts`, `message?`,
 *   `failure_kind?`, `captures`
 * - `flow_end`: `name`, `status`, `duration_ms`, `steps` (counts: `total`,
 *   `passed`, `failed`, `error`, `skipped`), `message?`
 * - `run_end`: `status`, `duration_ms`, `interrupted?`, `totals` (as in the
 *   JSON report)
 *
 * `run_start`, `run_end` have no `file`; `run_start`, `flow_start`,
 * `flow_end`, `run_end` have no `step`.
 *
 * What the fields mean:
 *
 * - `request` is written just before a request is sent; `attempt` counts from
 *   1 and goes up on polled steps. Exactly one `response` (a response arrived,
 *   whatever its status) or `request_error` (none arrived: network failure,
 *   timeout; `error` says why) follows for the same `file`, `step` and
 *   `attempt`. `duration_ms` is the time of that request alone.
 * - Polling has no event of its own: on a step with `loop`, each `response`
 *   carries `until_met`, whether every `until` condition held for it. A step
 *   without `loop` never has `until_met`, so `until_met` present means a polled
 *   step. A `request_error` never has it (no response, so the conditions did
 *   not hold).
 * - `assertion` lines come when a step ends, one per checked condition, in the
 *   order of the step's result: unmet or met `until` conditions of the last
 *   attempt (`phase: "until"`), then the step's `assert` checks
 *   (`phase: "assert"`), passing ones included. `expected` and `actual` are
 *   the values as the JSON report has them (`actual` is `null` with
 *   `found: false` when the path matched nothing); `line` and `column` locate
 *   the check in the flow file, or in `step_file` for a step of an included
 *   flow (also on its `step_end`).
 * - `step_end` follows its step's `assertion` lines directly; nothing of
 *   another flow comes between them. `attempts` is the number of requests
 *   sent, `captures` the names (never the values) of the values captured.
 *   Steps skipped after a failure get a `step_end` with `status: "skipped"`.
 * - `flow_end` has `message` when the flow did not pass: the message of the
 *   step that decided its status. A flow that never started (`--fail-fast`
 *   stopped the run, or it was interrupted) has a `flow_end` line with
 *   `status: "skipped"` and no `flow_start` or step lines.
 * - `run_end` is the last line; `totals` counts flows, steps and assertions.
 *
 * ## Order
 *
 * `run_start` is the first line and `run_end` the last. The lines of a flow
 * are held until the flow ends and then written together (one call of the
 * sink), `flow_start` to `flow_end`, in the order its events happened (`ts`
 * is when each happened, not when it was written). Holding them is what
 * keeps secrets out: a value may become secret only later in its flow (a
 * token captured by step 3 that step 1's response already showed), and no
 * line of the flow leaves before the redactor knows it. So lines of different flows never interleave, even
 * with `--jobs`; flows appear in the order they end. A flow still running
 * when the process is killed outright (SIGKILL) leaves no lines; SIGINT and
 * SIGTERM end every flow first, so their lines are written.
 *
 * The reporter keeps the run id and the held lines of the flows running now,
 * so its memory does not grow with the number of flows.
 *
 * @module
 */
import {
  type AssertionResult,
  countStatuses,
  type FlowResult,
  type RunResult,
  type StepResult,
} from "../model/result.ts";
import type { AttemptInfo, FlowRef, Reporter, RequestInfo, RunStart } from "../model/events.ts";
import { type Fields, LogLines, type LogMasking } from "./log_lines.ts";

/**
 * Where log lines go, in event order: called with whole lines, each ending
 * with `"\n"`: one line, or every line of a flow at once when the flow ends
 * (one write instead of a dozen). It may be async: the reporter awaits it,
 * and never calls it again before the previous write is done, so lines are
 * never reordered, even when events of several flows arrive at once.
 *
 * @example
 * ```ts
 * import type { LineSink } from "./log.ts";
 * const lines: string[] = [];
 * const sink: LineSink = (line) => void lines.push(line);
 * await sink('{"event":"run_end"}\n');
 * if (lines.length !== 1) throw new Error();
 * ```
 */
export type LineSink = (line: string) => void | Promise<void>;

/**
 * Options of {@linkcode logReporter}.
 *
 * @example
 * ```ts
 * import type { LogOptions } from "./log.ts";
 * const options: LogOptions = { sink: () => {}, now: () => new Date(0) };
 * if (options.now?.().toISOString() !== "1970-01-01T00:00:00.000Z") throw new Error();
 * ```
 */
export interface LogOptions {
  /** Receives each line. */
  sink: LineSink;
  /** The clock behind `ts` (default: the current time); set in tests. */
  now?: () => Date;
  /**
   * Masks lines as they are written (a flow's when it ends, with every
   * secret known then), keeping each valid JSON: values are masked, not
   * the line's text. For raw events (`RunOptions.rawEvents`).
   */
  redactor?: LogMasking;
  /**
   * With `redactor`: an ended flow's masked result, shared with the other
   * outputs (`FlowMasks.flow`), from which its step lines are made; by
   * default the log masks its own copy.
   */
  masked?: (flow: FlowResult) => FlowResult;
}

/** The message of the step that decided a flow's status (see `flowStatus` in run.ts). */
function deciding(steps: readonly StepResult[]): string | undefined {
  const stopper = steps.find((s) => s.status === "failed" || s.status === "error") ??
    steps.find((s) => s.status !== "passed");
  return stopper?.message;
}

/**
 * A reporter that writes the structured log: a line per event, streamed as
 * the run goes, a flow's lines when the flow ends (the event list is in this
 * module's documentation).
 *
 * @example
 * ```ts
 * import { logReporter } from "./log.ts";
 * const lines: string[] = [];
 * const log = logReporter({ sink: (line) => void lines.push(line), now: () => new Date(0) });
 * await log.onRunStart?.({ run_id: "r1", runner_version: "0.1.0", started_at: "", files: ["a.yaml"] });
 * await log.onFlowStart?.({ file: "a.yaml", name: "A" });
 * await log.onRequest?.({ file: "a.yaml", name: "A" }, { step: "get", attempt: 1, method: "GET", url: "http://x/" });
 * if (lines.length !== 1) throw new Error("a flow's lines wait for its end");
 * await log.onFlowEnd?.({ file: "a.yaml", name: "A", status: "passed", started_at: "", duration_ms: 1, steps: [] });
 * // run_start, then the flow's lines in one write: flow_start, request, flow_end.
 * const all = lines.join("").split("\n");
 * if (all[2] !== '{"event":"request","ts":"1970-01-01T00:00:00.000Z","run_id":"r1","file":"a.yaml","step":"get","attempt":1,"method":"GET","url":"http://x/"}') {
 *   throw new Error(all[2]);
 * }
 * ```
 */
export function logReporter(options: LogOptions): Reporter {
  const now = options.now ?? (() => new Date());
  const log = new LogLines(options.sink, now, options.redactor, options.masked);
  return {
    async onRunStart(run) {
      log.runId = run.run_id;
      await log.emit(runStartLine(log, run));
    },
    async onFlowStart(flow) {
      // A re-run's lines join those of the runs before it: the flow's lines stay together.
      if (!flow.attempt) log.hold(flow);
      await log.emit(
        { ...log.head("flow_start", flow.file), name: flow.name, ...rerun(flow) },
        flow,
      );
    },
    async onRequest(flow, request) {
      await log.emit(requestLine(log, flow, request), flow);
    },
    async onAttempt(flow, attempt) {
      await log.emit(attemptLine(log, flow, attempt), flow);
    },
    async onStepEnd(flow, step) {
      // Made again from the masked result when the flow ends: the times are those of now.
      const ts = now().toISOString();
      await log.emitStep(flow, step, (s) => [
        ...s.assertions.map((a) => assertionLine(log, flow, s, a, ts)),
        stepEndLine(log, flow, s, ts),
      ]);
    },
    async onFlowEnd(flow) {
      const ts = now().toISOString();
      await log.release(flow, (f) => flowEndLine(log, f, ts));
    },
    async onRunEnd(result) {
      log.runId = result.run_id;
      await log.emit(runEndLine(log, result));
    },
  };
}

function runStartLine(log: LogLines, run: RunStart): Fields {
  return {
    ...log.head("run_start"),
    runner_version: run.runner_version,
    started_at: run.started_at,
    files: run.files.length,
  };
}

function requestLine(log: LogLines, flow: FlowRef, request: RequestInfo): Fields {
  return {
    ...log.head("request", flow.file, request.step),
    ...rerun(flow),
    attempt: request.attempt,
    method: request.method,
    url: request.url,
    ...(request.trace_id ? { trace_id: request.trace_id, span_id: request.span_id } : {}),
  };
}

/** A `response` line, or a `request_error` line when no response arrived. */
function attemptLine(log: LogLines, flow: FlowRef, attempt: AttemptInfo): Fields {
  if (attempt.status === undefined) {
    return {
      ...log.head("request_error", flow.file, attempt.step),
      ...rerun(flow),
      attempt: attempt.attempt,
      error: attempt.error ?? "no response",
      duration_ms: attempt.duration_ms,
    };
  }
  return {
    ...log.head("response", flow.file, attempt.step),
    ...rerun(flow),
    attempt: attempt.attempt,
    status: attempt.status,
    duration_ms: attempt.duration_ms,
    until_met: attempt.until_met,
  };
}

/** On every line of a re-run of a flow (`--retries`): which run, from 2. */
function rerun(flow: FlowRef): Fields {
  return flow.attempt ? { flow_attempt: flow.attempt } : {};
}

function assertionLine(
  log: LogLines,
  flow: FlowRef,
  step: StepResult,
  a: AssertionResult,
  ts: string,
): Fields {
  return {
    ...log.head("assertion", flow.file, step.name, ts),
    ...rerun(flow),
    phase: a.phase,
    path: a.path,
    operator: a.operator,
    passed: a.passed,
    message: a.message,
    // `undefined` would drop the key; the documented shape always has both.
    expected: a.expected === undefined ? null : a.expected,
    actual: a.actual === undefined ? null : a.actual,
    found: a.found,
    line: a.line,
    column: a.column,
    ...(step.file ? { step_file: step.file } : {}),
    ...(a.file ? { check_file: a.file } : {}),
  };
}

function stepEndLine(log: LogLines, flow: FlowRef, step: StepResult, ts: string): Fields {
  return {
    ...log.head("step_end", flow.file, step.name, ts),
    ...rerun(flow),
    status: step.status,
    duration_ms: step.duration_ms,
    attempts: step.attempts,
    message: step.message,
    failure_kind: step.failure_kind,
    captures: step.captures,
    ...(step.file ? { step_file: step.file } : {}),
  };
}

function flowEndLine(log: LogLines, flow: FlowResult, ts: string): Fields {
  return {
    ...log.head("flow_end", flow.file, undefined, ts),
    name: flow.name,
    status: flow.status,
    duration_ms: flow.duration_ms,
    steps: countStatuses(flow.steps),
    message: flow.status === "passed" ? undefined : deciding(flow.steps),
    // A re-run flow: how many runs it took, and whether it passed on a re-run.
    ...(flow.attempts?.length ? { flow_attempts: flow.attempts.length + 1 } : {}),
    ...(flow.flaky ? { flaky: true } : {}),
  };
}

function runEndLine(log: LogLines, result: RunResult): Fields {
  return {
    ...log.head("run_end"),
    status: result.status,
    duration_ms: result.duration_ms,
    interrupted: result.interrupted,
    totals: result.totals,
  };
}

/**
 * The latency of a repeated run (`--repeat`), collected from the runner's
 * events: each request's duration (`onAttempt`) and why each step run did
 * not pass (`onStepEnd`), per step of each flow and overall.
 *
 * Percentiles are exact: every duration is kept, as 8 bytes in a typed
 * array (twice: its step's and the overall one), and sorted once at the
 * end — 100,000 iterations of a five-step flow keep 8 MB, no object per
 * request. A sketch (HDR, t-digest) would bound memory further at the cost
 * of an error a test could not pin; `--repeat` is capped at a million
 * (cli/run/repeat_option.ts), so a smoke load stays far below that.
 *
 * @module
 */
import type { AttemptInfo, FlowRef, Reporter } from "../model/events.ts";
import {
  ERROR_KINDS,
  type ErrorKind,
  type LatencyStats,
  type StepLatency,
} from "../model/latency.ts";
import type { StepResult } from "../model/result.ts";

/**
 * Durations in milliseconds, appended to a typed array that doubles when full.
 *
 * @example
 * ```ts
 * import { Durations } from "./latency.ts";
 * const d = new Durations();
 * for (const ms of [5, 1, 3, 2, 4]) d.add(ms);
 * const s = d.stats({});
 * if (s.requests !== 5 || s.p50_ms !== 3 || s.max_ms !== 5) throw new Error(JSON.stringify(s));
 * ```
 */
export class Durations {
  #values = new Float64Array(16);
  #length = 0;

  /** Adds one request's duration. */
  add(ms: number): void {
    if (this.#length === this.#values.length) {
      const grown = new Float64Array(this.#values.length * 2);
      grown.set(this.#values);
      this.#values = grown;
    }
    this.#values[this.#length++] = ms;
  }

  /** The count, nearest-rank percentiles and maximum, with `errors` as given. */
  stats(errors: LatencyStats["errors"]): LatencyStats {
    const n = this.#length;
    // Numeric order: a typed array's sort compares numbers, not strings.
    const sorted = this.#values.subarray(0, n).sort();
    const rank = (p: number) => n === 0 ? 0 : sorted[Math.max(0, Math.ceil((p / 100) * n) - 1)];
    return {
      requests: n,
      p50_ms: rank(50),
      p95_ms: rank(95),
      p99_ms: rank(99),
      max_ms: n === 0 ? 0 : sorted[n - 1],
      errors,
    };
  }
}

/**
 * Why a step run that did not pass failed, as the summary counts it;
 * undefined for a step that passed, was skipped or was interrupted (not
 * the server's doing). A request that got no response is a `timeout` when
 * the runner's message says `--timeout` ran out (lib/http/send.ts), else
 * `network`.
 *
 * @example
 * ```ts
 * import { errorKindOf } from "./latency.ts";
 * import type { StepResult } from "../model/result.ts";
 * const step = { status: "failed", failure_kind: "request", message: "No complete response within 500 ms." };
 * if (errorKindOf(step as StepResult) !== "timeout") throw new Error();
 * ```
 */
export function errorKindOf(step: StepResult): ErrorKind | undefined {
  if (step.status !== "failed" && step.status !== "error") return undefined;
  switch (step.failure_kind) {
    case "assertion":
      return step.assertions.some((a) => !a.passed && a.path === "status") ? "status" : "assertion";
    case "request":
      return /^No complete response within /.test(step.message ?? "") ? "timeout" : "network";
    case "capture":
    case "until":
    case "expression":
      return step.failure_kind;
    case "skipped":
    case "interrupted":
    case "condition":
      return undefined;
    default:
      return "other";
  }
}

/** One step of one flow: its durations and errors. */
interface StepLine {
  file: string;
  flow: string;
  step: string;
  durations: Durations;
  errors: Partial<Record<ErrorKind, number>>;
}

/**
 * Collects the requests and step failures of the flow runs `flowOf` names
 * (an iteration's flow name without its iteration; undefined for a run
 * that is not counted, such as a setup flow).
 *
 * @example
 * ```ts
 * import { LatencyCollector } from "./latency.ts";
 * const collector = new LatencyCollector((ref) => ref.name);
 * const ref = { file: "a.yaml", name: "a" };
 * const info = { step: "get", attempt: 1, method: "GET", url: "http://x.test" };
 * await collector.reporter.onAttempt?.(ref, { ...info, status: 200, duration_ms: 4 });
 * const { overall, steps } = collector.stats();
 * if (overall.requests !== 1 || steps[0].step !== "get" || steps[0].max_ms !== 4) throw new Error();
 * ```
 */
export class LatencyCollector {
  readonly #flowOf: (ref: FlowRef) => string | undefined;
  readonly #overall = new Durations();
  readonly #errors: Partial<Record<ErrorKind, number>> = {};
  readonly #lines = new Map<string, StepLine>();

  constructor(flowOf: (ref: FlowRef) => string | undefined) {
    this.#flowOf = flowOf;
  }

  /** The hooks that collect: put it beside the run's reporters. */
  readonly reporter: Reporter = {
    onAttempt: (ref: FlowRef, attempt: AttemptInfo) => {
      const line = this.#line(ref, attempt.step);
      if (!line) return;
      line.durations.add(attempt.duration_ms);
      this.#overall.add(attempt.duration_ms);
    },
    onStepEnd: (ref: FlowRef, step: StepResult) => {
      const kind = errorKindOf(step);
      const line = kind && this.#line(ref, step.name);
      if (!line) return;
      line.errors[kind] = (line.errors[kind] ?? 0) + 1;
      this.#errors[kind] = (this.#errors[kind] ?? 0) + 1;
    },
  };

  /** Overall and per step (in the order first seen), percentiles computed now. */
  stats(): { overall: LatencyStats; steps: StepLatency[] } {
    const steps = [...this.#lines.values()].map(({ file, flow, step, durations, errors }) => ({
      file,
      flow,
      step,
      ...durations.stats(ordered(errors)),
    }));
    return { overall: this.#overall.stats(ordered(this.#errors)), steps };
  }

  #line(ref: FlowRef, step: string): StepLine | undefined {
    const flow = this.#flowOf(ref);
    if (flow === undefined) return undefined;
    const key = `${ref.file}\0${flow}\0${step}`;
    let line = this.#lines.get(key);
    if (!line) {
      line = { file: ref.file, flow, step, durations: new Durations(), errors: {} };
      this.#lines.set(key, line);
    }
    return line;
  }
}

/** The counts in the order of `ERROR_KINDS`, so reports of two runs diff cleanly. */
function ordered(errors: Partial<Record<ErrorKind, number>>): Partial<Record<ErrorKind, number>> {
  const out: Partial<Record<ErrorKind, number>> = {};
  for (const kind of ERROR_KINDS) if (errors[kind]) out[kind] = errors[kind];
  return out;
}

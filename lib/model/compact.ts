/**
 * What a run keeps of a finished flow's result once its reporters have seen
 * it whole: compacted in place (`compactFlow`), its failed steps optionally
 * spilled to disk (`spillSteps`), so that memory stays flat however many
 * flows a run has.
 *
 * @module
 */
import type { AssertionResult, FlowResult, StepResult } from "./result.ts";
import type { ByteSpill } from "./spill.ts";
import { spilledList } from "./spilled_list.ts";
import { clipped } from "../_util/clip.ts";

// Shared by every compacted passing check: only `passed` is read once a flow is compacted.
const NO_CAPTURES = Object.freeze([]) as unknown as StepResult["captures"];

const KEPT_PASS: AssertionResult = Object.freeze({
  phase: "assert",
  path: "",
  operator: "",
  expected: undefined,
  actual: undefined,
  found: true,
  passed: true,
  message: "",
  line: 0,
  column: 0,
}) as AssertionResult;

/**
 * Shrinks a finished flow's result, in place, to what a run keeps once the
 * reporters have seen it whole: the status and check count of every step,
 * and of failed steps their name, timing, position, checks, message and
 * request line (no headers, bodies or values). Totals counted afterwards
 * are unchanged. A passing check, a step that passed or was skipped with no
 * failed check, and the step list of a flow made only of those become
 * shared placeholders (nameless, 0 ms), so a passing flow keeps nothing of
 * its own but its own fields. Memory then stays flat however many flows a
 * run has (`RunOptions.compact`).
 *
 * @example
 * ```ts
 * import { compactFlow } from "./compact.ts";
 * import { totalsOf } from "./result.ts";
 * const step = (status: "passed" | "failed") => ({
 *   name: status, status, duration_ms: 1, attempts: 1, line: 3, column: 5, captures: [],
 *   request: { method: "GET", url: "http://x.test/", headers: { a: "b" }, body: "big" },
 *   response: { status: 500, body: "big" },
 *   assertions: [{ phase: "assert" as const, path: "$.a", operator: "equals", expected: 1, actual: 2,
 *     found: true, passed: status === "passed", message: "m", line: 4, column: 7 }],
 * });
 * const flow = { file: "a.yaml", name: "a", status: "failed" as const, started_at: "", duration_ms: 2,
 *   steps: [step("passed"), step("failed")] };
 * const before = JSON.stringify(totalsOf([flow]));
 * compactFlow(flow);
 * if (JSON.stringify(totalsOf([flow])) !== before) throw new Error("totals changed");
 * if (flow.steps[0].request !== null || flow.steps[1].response?.body !== undefined) throw new Error();
 * if (flow.steps[1].assertions[0].actual !== 2 || flow.steps[1].request?.url !== "http://x.test/") throw new Error();
 * ```
 */
export function compactFlow(flow: FlowResult): void {
  const kept = flow.steps.map(compactStep);
  // (Only placeholders are frozen.)
  flow.steps = kept.every((s) => Object.isFrozen(s)) ? sharedSteps(kept) : kept;
  // A re-run flow's earlier runs did not pass: kept like a failed flow's steps (at most
  // MAX_FLOW_RETRIES of them), so a flaky suite's memory stays flat too.
  if (flow.attempts) {
    flow.attempts = flow.attempts.map((a) => ({ ...a, steps: a.steps.map(compactStep) }));
  }
}

/**
 * Moves a compacted flow's own steps (a failure's name, position, checks
 * and message) to `spill`: `flow.steps` is then a list that reads them back
 * when it is read ({@linkcode spilledList}), so a run where every flow fails
 * keeps no step in memory, and the result keeps its shape. A
 * flow whose step list is shared (see {@linkcode compactFlow}) keeps it.
 * Steps that cannot be written as JSON stay.
 *
 * @example
 * ```ts
 * import { compactFlow, spillSteps } from "./compact.ts";
 * const kept: Uint8Array[] = [];
 * const spill = { put: (bytes: Uint8Array) => (kept.push(bytes), () => bytes) };
 * const flow = { file: "a.yaml", name: "a", status: "failed" as const, started_at: "", duration_ms: 2,
 *   steps: [{ name: "s", status: "failed" as const, duration_ms: 1, attempts: 1, line: 3, column: 5,
 *     request: null, response: null, assertions: [], captures: [], message: "Status 500." }] };
 * compactFlow(flow);
 * spillSteps(flow, spill);
 * if (kept.length !== 1 || flow.steps[0].message !== "Status 500.") throw new Error();
 * ```
 */
export function spillSteps(flow: FlowResult, spill: ByteSpill): void {
  if (Object.isFrozen(flow.steps)) return;
  let text: string;
  try {
    text = JSON.stringify(flow.steps);
  } catch {
    return;
  }
  flow.steps = spilledList(spill.put(encoder.encode(text)));
}

const encoder = new TextEncoder();

/**
 * Step lists kept for flows with nothing to say, by their shape: a suite's
 * flows mostly share a few, so ten thousand passing flows keep a few lists.
 */
const SHAPES = new Map<string, StepResult[]>();
const MAX_SHAPES = 1000;

function sharedSteps(steps: StepResult[]): StepResult[] {
  const key = steps.map((s) => `${s.status}${s.assertions.length}`).join();
  const known = SHAPES.get(key);
  if (known) return known;
  const list = Object.freeze(steps) as StepResult[];
  if (SHAPES.size < MAX_SHAPES) SHAPES.set(key, list);
  return list;
}

/** Placeholders for steps that passed or were skipped with every check passing, by shape. */
const PLAIN = new Map<string, StepResult>();

/** Shared, frozen lists of `n` passing checks: most kept steps differ only in how many. */
const PASSES: AssertionResult[][] = [];

function passes(n: number): AssertionResult[] {
  return PASSES[n] ??= Object.freeze(Array(n).fill(KEPT_PASS)) as unknown as AssertionResult[];
}

function compactStep(s: StepResult): StepResult {
  if (
    (s.status === "passed" || s.status === "skipped") && s.assertions.length < 64 &&
    s.assertions.every((a) => a.passed)
  ) return plainStep(s.status, s.assertions.length);
  const kept: StepResult = {
    name: s.name,
    status: s.status,
    duration_ms: s.duration_ms,
    attempts: s.attempts,
    line: s.line,
    column: s.column,
    request: null,
    response: null,
    assertions: passes(0),
    captures: NO_CAPTURES,
  };
  if (s.file !== undefined) kept.file = s.file;
  if (s.message !== undefined) kept.message = s.message;
  if (s.status !== "failed" && s.status !== "error") {
    const n = s.assertions.length;
    kept.assertions = s.assertions.every((a) => a.passed) && n < 64
      ? passes(n)
      : s.assertions.map((a) => (a.passed ? KEPT_PASS : a));
    return kept;
  }
  if (s.failure_kind !== undefined) kept.failure_kind = s.failure_kind;
  kept.request = s.request && { method: s.request.method, url: s.request.url };
  kept.response = s.response && { status: s.response.status };
  // A failed check's actual value can be a whole body: it was printed and reported already.
  kept.assertions = s.assertions.map((
    a,
  ) => (a.passed ? KEPT_PASS : { ...a, actual: clip(a.actual) }));
  return kept;
}

/**
 * What a run keeps of a step that passed, or was skipped, with nothing
 * failed: its status and how many checks passed. Its name, timing and
 * position were reported when its flow ended.
 */
function plainStep(status: "passed" | "skipped", checks: number): StepResult {
  const key = `${status}${checks}`;
  let step = PLAIN.get(key);
  if (!step) {
    step = Object.freeze({
      name: "",
      status,
      duration_ms: 0,
      attempts: 1,
      line: 0,
      column: 0,
      request: null,
      response: null,
      assertions: passes(checks),
      captures: NO_CAPTURES,
    });
    PLAIN.set(key, step);
  }
  return step;
}

function clip(value: unknown): unknown {
  if (typeof value === "string") return clipped(value, 200);
  return value !== null && typeof value === "object" ? "[kept in the reports]" : value;
}

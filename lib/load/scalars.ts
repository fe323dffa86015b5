/**
 * Scalars every section reads the same way: bounded integers (attempts,
 * retries, milliseconds) and durations (`500ms`, `5s`, `2m`), each with the
 * problem and hint for a wrong one.
 *
 * @module
 */
import { isScalar } from "./nodes.ts";
import { formatDuration, parseDuration } from "../_util/duration.ts";
import { describe } from "./describe.ts";
import type { Entry } from "./entry.ts";
import { type OffsetSink, refuseExpression } from "./not_allowed.ts";

/** Where a wrong scalar is reported (a `Loading`). */
export type ProblemSink = OffsetSink;

/**
 * An integer of at least `min` (and at most `max`); a wrong one is reported
 * with a hint for milliseconds, attempts or retries.
 *
 * @example
 * ```ts
 * import { loadFlow } from "./load_flow.ts";
 * const { problems } = loadFlow(
 *   'name: f\nsteps:\n  - name: s\n    request: {url: "http://x.test"}\n' +
 *     "    loop: {max_attempts: 0, until: {status: 200}}\n",
 *   "f.yaml",
 * );
 * if (problems[0]?.hint !== "It counts the requests sent, at least 1: e.g. max_attempts: 10.") {
 *   throw new Error(problems[0]?.hint);
 * }
 * ```
 */
export function readInteger(
  ctx: ProblemSink,
  entry: Entry,
  what: string,
  min: number,
  max?: number,
): number | undefined {
  const node = entry.value;
  if (refuseExpression(ctx, node, what)) return undefined;
  if (
    isScalar(node) && typeof node.value === "number" && Number.isInteger(node.value) &&
    node.value >= min
  ) {
    if (max === undefined || node.value <= max) return node.value;
    ctx.problem(
      "out-of-range",
      `Expected ${what} to be at most ${max}, got ${node.value}.`,
      node,
      /retry/.test(what)
        ? `Retries are bounded so a run always ends: at most ${max}.`
        : "Polling is bounded so a run always ends; a longer wait belongs in a separate job.",
    );
    return undefined;
  }
  ctx.problem(
    "wrong-type",
    `Expected ${what} to be an integer of at least ${min}, got ${describe(node)}.`,
    node ?? entry.keyNode,
    integerHint(node, what),
  );
  return undefined;
}

/** The hint for a wrong integer: milliseconds written with a unit, or what a count counts. */
function integerHint(node: Entry["value"], what: string): string | undefined {
  const text = isScalar(node) && typeof node.value === "string" ? node.value.trim() : "";
  const duration = /^(\d+(?:\.\d+)?)\s*(ms|s|m)$/.exec(text);
  const ms = duration &&
    Math.round(Number(duration[1]) * { ms: 1, s: 1000, m: 60_000 }[duration[2] as "ms"]);
  return /_ms"/.test(what)
    ? `Write milliseconds as a number${ms !== null ? `: ${ms}` : ", e.g. 1000 for one second"}.`
    : /max_attempts"/.test(what)
    ? "It counts the requests sent, at least 1: e.g. max_attempts: 10."
    : undefined;
}

/**
 * A duration: milliseconds as an integer, or a number with a unit
 * (`500ms`, `5s`, `2m`), from `min` to `max` milliseconds.
 *
 * @example
 * ```ts
 * import { loadFlow } from "./load_flow.ts";
 * const { flow } = loadFlow(
 *   'name: f\nsteps:\n  - name: s\n    request: {url: "http://x.test"}\n' +
 *     "    options: {timeout: 2s}\n",
 *   "f.yaml",
 * );
 * if (flow?.steps[0].options?.timeoutMs !== 2000) throw new Error();
 * ```
 */
export function readDuration(
  ctx: ProblemSink,
  entry: Entry,
  what: string,
  min: number,
  max: number,
): number | undefined {
  const node = entry.value;
  if (refuseExpression(ctx, node, what)) return undefined;
  const v = isScalar(node) ? node.value : undefined;
  const ms = typeof v === "number" && Number.isInteger(v)
    ? v
    : typeof v === "string"
    ? parseDuration(v)
    : undefined;
  if (ms === undefined) {
    ctx.problem(
      "wrong-type",
      `Expected ${what} to be a duration, got ${describe(node)}.`,
      node ?? entry.keyNode,
      "Write milliseconds as a number (1000) or a number with a unit: 500ms, 5s, 2m.",
    );
    return undefined;
  }
  if (ms < min || ms > max) {
    ctx.problem(
      "out-of-range",
      `Expected ${what} to be from ${formatDuration(min)} to ${formatDuration(max)}, got ${
        formatDuration(ms)
      }.`,
      node,
      ms > max
        ? "Waits are bounded so a run always ends; a longer wait belongs in a separate job."
        : `Write at least ${min}${min === 0 ? " for none" : "ms"}.`,
    );
    return undefined;
  }
  return ms;
}

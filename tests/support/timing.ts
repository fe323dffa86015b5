/**
 * Time in tests without wall-clock limits, so a test holds on a busy machine (issue 54): a bound
 * against catastrophic growth is a ratio of two timings taken in the same process moments apart
 * (whatever slows one slows the other), and a wait that must end has a ceiling that only tells a
 * hang from an answer, {@linkcode HANG_MS}, never a measure of speed. Absolute times are `bench/`'s.
 *
 * A test that still depends on the clock says so in its name with {@linkcode TIMING}: on failure
 * `deno task test` lists it as timing-sensitive, with the command that reruns its file alone.
 *
 * @module
 */
import assert from "node:assert/strict";

/** The marker ending the name of a test that still depends on the clock. */
export const TIMING = "[timing]";

/**
 * How long a wait may take before the test calls it a hang: a minute, far beyond any answer on
 * the busiest machine, far below the hours a runaway loop or a missed timeout would take.
 */
export const HANG_MS = 60_000;

/**
 * The fastest of `rounds` runs of `work`, in milliseconds per call: each round repeats the call
 * until 20 ms have passed, so a call far shorter than the clock's grain is still measured, and the
 * fastest round is the one the machine's other work disturbed least.
 *
 * @example
 * ```ts
 * import { fastestMs } from "./timing.ts";
 * import assert from "node:assert/strict";
 * assert.ok(fastestMs(() => JSON.stringify([1, 2, 3])) < 1_000);
 * ```
 */
export function fastestMs(work: () => unknown, rounds = 3): number {
  let best = Infinity;
  for (let round = 0; round < rounds; round++) {
    let calls = 0;
    const started = performance.now();
    let elapsed = 0;
    do {
      work();
      calls++;
      elapsed = performance.now() - started;
    } while (elapsed < 20);
    best = Math.min(best, elapsed / calls);
  }
  return best;
}

/**
 * Asserts that `run(n * factor)` costs at most `slack` times `factor` what `run(n)` costs, timed
 * in this process one after the other: linear work passes at about `factor`, quadratic work is
 * `factor` times over (64 against a limit of 24 at the defaults). Gives the ratio.
 *
 * @example
 * ```ts
 * import { assertLinear } from "./timing.ts";
 * assertLinear("a join", (n) => "x".repeat(n).split("").join(","), 20_000);
 * ```
 */
export function assertLinear(
  label: string,
  run: (n: number) => unknown,
  n: number,
  factor = 8,
  slack = 3,
): number {
  run(n); // warm up: the first call compiles what the others reuse
  const small = fastestMs(() => run(n));
  const large = fastestMs(() => run(n * factor));
  const ratio = large / small;
  assert.ok(
    ratio < factor * slack,
    `${label}: ${factor} times the input took ${ratio.toFixed(1)} times as long ` +
      `(${small.toFixed(2)} ms, then ${large.toFixed(2)} ms); linear is about ${factor}`,
  );
  return ratio;
}

/**
 * Asserts that `hostile` costs at most `limit` times what `benign` costs, timed in this process
 * one after the other: an input built to be slow (a bomb, a runaway pattern) against an ordinary
 * one of the same size, each the fastest of `rounds` ({@linkcode fastestMs}; one for work of
 * seconds, where the machine's other work evens out). Gives the ratio.
 *
 * @example
 * ```ts
 * import { assertCostsLike } from "./timing.ts";
 * const nested = "[".repeat(5_000) + "]".repeat(5_000);
 * const flat = "[" + "1,".repeat(4_999) + "1]";
 * assertCostsLike("nesting", () => nested.split("").length, () => flat.split("").length, 10);
 * ```
 */
export function assertCostsLike(
  label: string,
  hostile: () => unknown,
  benign: () => unknown,
  limit: number,
  rounds = 3,
): number {
  if (rounds > 1) benign(); // warm up: the first call compiles what the others reuse
  const base = fastestMs(benign, rounds);
  const cost = fastestMs(hostile, rounds);
  const ratio = cost / base;
  assert.ok(
    ratio < limit,
    `${label}: ${ratio.toFixed(1)} times what an ordinary input of its size costs ` +
      `(${cost.toFixed(2)} ms against ${base.toFixed(2)} ms); the bound is ${limit}`,
  );
  return ratio;
}

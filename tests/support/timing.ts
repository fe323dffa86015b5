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
 * `factor` times over (64 against a limit of 24 at the defaults), on every one of the up to three
 * measurements it takes before failing. Gives the best ratio.
 *
 * @example
 * ```ts
 * import { assertLinear } from "./timing.ts";
 * assertLinear("a sum", (n) => {
 *   let sum = 0;
 *   for (let i = 0; i < n; i++) sum += i % 7;
 *   return sum;
 * }, 20_000);
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
  const measure = () => {
    const small = fastestMs(() => run(n));
    const large = fastestMs(() => run(n * factor));
    return { ratio: large / small, small, large };
  };
  const best = bestOf(measure, (m) => m.ratio < factor * slack);
  assert.ok(
    best.ratio < factor * slack,
    `${label}: ${factor} times the input took ${best.ratio.toFixed(1)} times as long ` +
      `(${best.small.toFixed(2)} ms, then ${best.large.toFixed(2)} ms); linear is about ${factor}`,
  );
  return best.ratio;
}

/**
 * Up to {@linkcode ATTEMPTS} measurements, stopping at the first that passes: a collection or
 * another process landing on one timing inflates one ratio (a CI run saw 49.6 for linear work),
 * while work of the wrong order fails every attempt, so a retry costs no power to catch it.
 */
function bestOf<M extends { ratio: number }>(measure: () => M, passes: (m: M) => boolean): M {
  let best = measure();
  for (let attempt = 1; attempt < ATTEMPTS && !passes(best); attempt++) {
    const next = measure();
    if (next.ratio < best.ratio) best = next;
  }
  return best;
}

/**
 * How many times a ratio is measured before a bound counts as broken: three let a linear sum fail
 * at 25 for a limit of 24 while nine processes shared two cores; quadratic work fails all five.
 */
const ATTEMPTS = 5;

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
  const measure = () => {
    const base = fastestMs(benign, rounds);
    const cost = fastestMs(hostile, rounds);
    return { ratio: cost / base, base, cost };
  };
  const best = bestOf(measure, (m) => m.ratio < limit);
  assert.ok(
    best.ratio < limit,
    `${label}: ${best.ratio.toFixed(1)} times what an ordinary input of its size costs ` +
      `(${best.cost.toFixed(2)} ms against ${best.base.toFixed(2)} ms); the bound is ${limit}`,
  );
  const ratio = best.ratio;
  return ratio;
}

/**
 * {@linkcode assertLinear} for work that is asynchronous (a document read through a promise):
 * each size timed twice, the faster kept, the pair measured up to three times. Gives the ratio.
 *
 * @example
 * ```ts
 * import { assertLinearAsync } from "./timing.ts";
 * await assertLinearAsync("an async sum", async (n) => {
 *   let sum = 0;
 *   for (let i = 0; i < n; i++) sum += i % 7;
 *   return await Promise.resolve(sum);
 * }, 2_000_000); // milliseconds of work: a sub-millisecond timing is all noise on a busy machine
 * ```
 */
export async function assertLinearAsync(
  label: string,
  run: (n: number) => Promise<unknown>,
  n: number,
  factor = 8,
  slack = 3,
): Promise<number> {
  const once = async (size: number) => {
    const started = performance.now();
    await run(size);
    return performance.now() - started;
  };
  const twice = async (size: number) => Math.min(await once(size), await once(size));
  await run(n); // warm up: the first call compiles what the others reuse
  let best = { ratio: Infinity, small: 0, large: 0 };
  for (let attempt = 0; attempt < ATTEMPTS && !(best.ratio < factor * slack); attempt++) {
    const small = await twice(n);
    const large = await twice(n * factor);
    if (large / small < best.ratio) best = { ratio: large / small, small, large };
  }
  assert.ok(
    best.ratio < factor * slack,
    `${label}: ${factor} times the input took ${best.ratio.toFixed(1)} times as long ` +
      `(${best.small.toFixed(2)} ms, then ${best.large.toFixed(2)} ms); linear is about ${factor}`,
  );
  return best.ratio;
}

/**
 * Bounded polling: try, check, pause, try again, at most `maxAttempts` times.
 * There is no unbounded form: the loader rejects a loop without a positive
 * `max_attempts`.
 *
 * @module
 */

/**
 * How to poll.
 *
 * @example
 * ```ts
 * import type { PollOptions } from "./poll.ts";
 * const options: PollOptions = { maxAttempts: 3, sleepMs: 100 };
 * if (options.maxAttempts !== 3) throw new Error();
 * ```
 */
export interface PollOptions {
  maxAttempts: number;
  /** Pause between attempts (not after the last one). */
  sleepMs: number;
  /** Stops waiting early; the last attempt made is returned. */
  signal?: AbortSignal;
}

/**
 * What polling ended with.
 *
 * @example
 * ```ts
 * import { type PollOutcome, pollUntil } from "./poll.ts";
 * const outcome: PollOutcome<number> = await pollUntil(async (n) => n, (n) => n === 2, { maxAttempts: 3, sleepMs: 1 });
 * if (outcome.last !== 2 || !outcome.satisfied) throw new Error();
 * ```
 */
export interface PollOutcome<T> {
  last: T;
  attempts: number;
  /** Whether `done` held for the last attempt. */
  satisfied: boolean;
}

/**
 * Waits `ms` milliseconds, or less when `signal` aborts first.
 *
 * @example
 * ```ts
 * import { pause } from "./poll.ts";
 * const started = performance.now();
 * await pause(20);
 * if (performance.now() - started < 15) throw new Error();
 * await pause(60_000, AbortSignal.abort());
 * ```
 */
export function pause(ms: number, signal?: AbortSignal): Promise<void> {
  if (ms <= 0 || signal?.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    }
    signal?.addEventListener("abort", done, { once: true });
  });
}

/**
 * Calls `attempt` until `done` holds for its result or `maxAttempts` calls
 * were made, pausing `sleepMs` between calls. An exception from `attempt`
 * ends polling and propagates (a failed attempt should be a value instead).
 *
 * @example
 * ```ts
 * import { pollUntil } from "./poll.ts";
 * let calls = 0;
 * const outcome = await pollUntil(async () => ++calls, (n) => n === 3, { maxAttempts: 5, sleepMs: 1 });
 * if (outcome.attempts !== 3 || !outcome.satisfied) throw new Error();
 * const never = await pollUntil(async () => 0, () => false, { maxAttempts: 2, sleepMs: 1 });
 * if (never.attempts !== 2 || never.satisfied) throw new Error();
 * ```
 */
export async function pollUntil<T>(
  attempt: (n: number) => Promise<T>,
  done: (result: T) => boolean,
  options: PollOptions,
): Promise<PollOutcome<T>> {
  let attempts = 0;
  for (;;) {
    attempts++;
    const last = await attempt(attempts);
    const satisfied = done(last);
    if (satisfied || attempts >= options.maxAttempts || options.signal?.aborted) {
      return { last, attempts, satisfied };
    }
    await pause(options.sleepMs, options.signal);
    // Aborted during the pause: return what we have rather than send one more request.
    if (options.signal?.aborted) return { last, attempts, satisfied };
  }
}

/**
 * The time guard: one mechanism for every check whose work the input
 * controls (regular expressions, XPath, JSON Schema validation and compile,
 * JSONPath filters). The work runs on the helper thread
 * (`helper_thread.ts`) and the caller waits at most a time limit for it; a
 * budget bounds how long the calling thread waits in a row, so that a
 * signal is seen and abandoned threads are stopped. Private helper of
 * `_util/`; errors are {@linkcode GuardError}.
 *
 * @module
 */
import { formatMs, GuardError } from "./guard_error.ts";
import { type GuardedTask, loadWorkerThreads, runOnHelper } from "./helper_thread.ts";

export { GuardError } from "./guard_error.ts";
export type { GuardCode } from "./guard_error.ts";
export type { GuardedTask } from "./helper_thread.ts";

/**
 * How long one match (or other guarded work, by default) may run, in
 * milliseconds: 1000.
 *
 * @example
 * ```ts
 * import { MATCH_TIME_LIMIT_MS } from "./time_guard.ts";
 * if (MATCH_TIME_LIMIT_MS !== 1000) throw new Error();
 * ```
 */
export const MATCH_TIME_LIMIT_MS = 1000;

/**
 * Runs a task on the helper thread and waits, at most `limitMs`, for its
 * result; a task that takes longer is abandoned and its thread terminated,
 * which stops V8 mid-work, so the caller is never blocked past the limit
 * (and a signal waits no longer than that). Throws {@linkcode GuardError}:
 * `check-timeout` when the work ran out of time, `check-failed` when it
 * could not run. The helper's module is best loaded first with
 * {@linkcode prepareGuard}.
 *
 * @example
 * ```ts
 * import { GuardError, prepareGuard, runGuarded } from "./time_guard.ts";
 * await prepareGuard();
 * const task = { name: "double", source: "return (n) => n * 2;", imports: {} };
 * if (runGuarded(task, 21) !== 42) throw new Error();
 * const spin = { name: "spin", source: "return () => { for (;;) {} };", imports: {} };
 * try {
 *   runGuarded(spin, null, 100);
 *   throw new Error("expected a timeout");
 * } catch (error) {
 *   if (!(error instanceof GuardError) || error.code !== "check-timeout") throw error;
 * }
 * ```
 */
export function runGuarded(
  task: GuardedTask,
  input: unknown,
  limitMs: number = MATCH_TIME_LIMIT_MS,
): unknown {
  if (blockedMs >= GUARD_BUDGET_MS) {
    throw new GuardError(
      "check-failed",
      `the checks before it already waited ${
        formatMs(GUARD_BUDGET_MS)
      } for the helper thread without a pause (a check over every item of a long list?)`,
    );
  }
  return runOnHelper(task, input, limitMs, noteBlocked);
}

/**
 * Loads the helper thread's module (`node:worker_threads`), for a run that
 * has a check running on it (XPath, schemas; `prepareRegex` in `regex.ts`
 * does this for regular expressions).
 *
 * @example
 * ```ts
 * import { prepareGuard } from "./time_guard.ts";
 * await prepareGuard();
 * ```
 */
export async function prepareGuard(): Promise<void> {
  await loadWorkerThreads();
}

/** How long the calling thread has waited for the helper since the event loop last turned. */
let blockedMs = 0;
let resetPending = false;

/**
 * The most the calling thread waits for the helper between two turns of the
 * event loop: 3 s. Each wait is bounded, but a check group over 300,000 list
 * items with a slow pattern made 300,000 of them in a row, during which no
 * signal was seen; past this, guarded work fails at once until the thread
 * gives way (between steps, see {@linkcode giveWayAfterGuards}).
 *
 * @example
 * ```ts
 * import { GUARD_BUDGET_MS } from "./time_guard.ts";
 * if (GUARD_BUDGET_MS !== 3000) throw new Error();
 * ```
 */
export const GUARD_BUDGET_MS = 3000;

function noteBlocked(ms: number): void {
  blockedMs += ms;
  if (resetPending) return;
  resetPending = true;
  // Runs at the next turn of the event loop, which ends the stretch of waiting.
  setTimeout(() => {
    blockedMs = 0;
    resetPending = false;
  }, 0);
}

/**
 * Gives way to the event loop (a macrotask) when the calling thread has
 * spent more than 100 ms waiting for the helper since it last did, else
 * returns at once. Waiting blocks the thread; a run whose steps send nothing
 * (conditions that do not hold) never reached the event loop between its
 * checks, so SIGINT was not seen, and abandoned helper threads, whose
 * termination needs the event loop, kept running. A runner calls this
 * between steps.
 *
 * @example
 * ```ts
 * import { giveWayAfterGuards } from "./time_guard.ts";
 * await giveWayAfterGuards();
 * ```
 */
export async function giveWayAfterGuards(): Promise<void> {
  if (blockedMs < 100) return;
  await new Promise((resolve) => setTimeout(resolve, 0));
}

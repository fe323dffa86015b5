/**
 * How long a write that goes through (a FIFO, a device, a standard stream)
 * may still wait once the run is interrupted, so a FIFO nobody reads cannot
 * hold the process. Deno API family: none (timers and `AbortSignal`).
 *
 * @module
 */
import { ArtifactWriteError } from "./artifact_error.ts";

/**
 * Once a run is interrupted, how long one open or one write of an artifact
 * that is written through (a FIFO, a device, a standard stream) may still
 * wait before it is given up: a FIFO nobody reads would hold the process for
 * ever, and a signal must end the run within a second or two.
 *
 * @example
 * ```ts
 * import { INTERRUPTED_WRITE_MS } from "./interrupt.ts";
 * if (INTERRUPTED_WRITE_MS !== 1000) throw new Error();
 * ```
 */
export const INTERRUPTED_WRITE_MS = 1000;

/** How a write may be bounded. */
export interface WriteOptions {
  /**
   * The run's interrupt: once aborted, a write that goes through (a FIFO, a
   * device, a standard stream) is given up when nothing takes its bytes for
   * {@linkcode INTERRUPTED_WRITE_MS}, with an `interrupted`
   * {@linkcode ArtifactWriteError}.
   */
  interrupt?: AbortSignal;
}

/** A wait that may end: an open or a write raced against the run's interrupt. */
export type Bound = <T>(work: Promise<T>) => Promise<T>;

/**
 * The bound of a write that always ends (a temporary file's).
 *
 * @example
 * ```ts
 * import { UNBOUNDED } from "./interrupt.ts";
 * if ((await UNBOUNDED(Promise.resolve(1))) !== 1) throw new Error();
 * ```
 */
export const UNBOUNDED: Bound = (work) => work;

/**
 * Races each wait against `interrupt`: a wait still pending
 * {@linkcode INTERRUPTED_WRITE_MS} after the interrupt (or after it began,
 * when it began later) rejects with an `interrupted`
 * {@linkcode ArtifactWriteError}. What it waited for is left behind; the
 * process ends without it.
 *
 * @example
 * ```ts
 * import { boundBy } from "./interrupt.ts";
 * const interrupt = AbortSignal.abort();
 * const never = new Promise<never>(() => {});
 * const error = await boundBy("fifo", interrupt)(never).catch((e) => e);
 * if (error.code !== "interrupted") throw new Error();
 * ```
 */
export function boundBy(path: string, interrupt: AbortSignal | undefined): Bound {
  if (!interrupt) return UNBOUNDED;
  return <T>(work: Promise<T>): Promise<T> => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let arm = () => {};
    const givenUp = new Promise<never>((_, reject) => {
      arm = () => {
        timer = setTimeout(() => {
          reject(
            new ArtifactWriteError(
              path,
              `Nothing took the bytes within ${INTERRUPTED_WRITE_MS / 1000} s of the interrupt`,
              "interrupted",
            ),
          );
        }, INTERRUPTED_WRITE_MS);
      };
    });
    if (interrupt.aborted) arm();
    else interrupt.addEventListener("abort", arm, { once: true });
    return Promise.race([work, givenUp]).finally(() => {
      clearTimeout(timer);
      interrupt.removeEventListener("abort", arm);
    });
  };
}

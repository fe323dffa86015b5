/**
 * The time an `sse:` step reads for, and the run's interrupt, as one abort
 * signal every connection and pause of the attempt listens to: whichever
 * comes first ends them, and afterwards says which it was.
 *
 * @module
 */
import { around, joined, ownWords, type Told, told } from "../../model/told.ts";

/**
 * A deadline `ms` from now, also ended by `outer` (SIGINT).
 *
 * @example
 * ```ts
 * import { Deadline } from "./deadline.ts";
 * const deadline = new Deadline(20, undefined);
 * if (await deadline.sleep(10_000)) throw new Error("the pause ends at the deadline");
 * if (!deadline.expired || deadline.interrupted) throw new Error();
 * deadline.clear();
 * ```
 */
export class Deadline {
  readonly ms: number;
  readonly #controller = new AbortController();
  readonly #timer: ReturnType<typeof setTimeout>;
  readonly #outer?: AbortSignal;
  readonly #explain?: (error: unknown) => Told;
  readonly #onAbort = () => this.#controller.abort(new DOMException("Interrupted.", "AbortError"));

  /** `explain` words a network error (the runner's `networkReason`); its message otherwise, a value. */
  constructor(ms: number, outer: AbortSignal | undefined, explain?: (error: unknown) => Told) {
    this.ms = ms;
    this.#explain = explain;
    this.#timer = setTimeout(
      () => this.#controller.abort(new DOMException("Time is up.", "TimeoutError")),
      ms,
    );
    this.#outer = outer;
    if (outer?.aborted) this.#onAbort();
    else outer?.addEventListener("abort", this.#onAbort, { once: true });
  }

  /** Aborted at the deadline or the interrupt. */
  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  /** Whether the run was interrupted. */
  get interrupted(): boolean {
    return this.#outer?.aborted === true;
  }

  /** Whether the time ran out (and the run was not interrupted). */
  get expired(): boolean {
    return this.#controller.signal.aborted && !this.interrupted;
  }

  /** Waits `ms`: `true` after it, `false` when the deadline or the interrupt came first. */
  sleep(ms: number): Promise<boolean> {
    const signal = this.signal;
    if (signal.aborted) return Promise.resolve(false);
    return new Promise((resolve) => {
      const done = (slept: boolean) => {
        clearTimeout(timer);
        signal.removeEventListener("abort", stop);
        resolve(slept);
      };
      const stop = () => done(false);
      const timer = setTimeout(() => done(true), ms);
      signal.addEventListener("abort", stop, { once: true });
    });
  }

  /**
   * The error an attempt ends with when `what` failed: interrupted, timed out, or the network's.
   * `what` (a request line) and the network's words quote values, kept apart from flowrun's
   * words so that a short password (`failed`) masks the URL and never the sentence.
   *
   * @example
   * ```ts
   * import { Deadline } from "./deadline.ts";
   * import { tell, told } from "../../model/told.ts";
   * const deadline = new Deadline(1000, undefined);
   * const why = deadline.why(new Error("odd."), told`GET ${"http://h/?q=failed"}`);
   * if (tell(why.message) !== "GET http://h/?q=failed failed: odd." || why.message.values.length !== 2) {
   *   throw new Error(tell(why.message));
   * }
   * deadline.clear();
   * ```
   */
  why(error: unknown, what: Told): { reason: string; message: Told } {
    if (this.interrupted) {
      return { reason: "interrupted", message: ownWords("The run was interrupted.") };
    }
    if (this.expired) {
      return {
        reason: "timeout",
        message: around("", what, ` did not answer within ${this.ms} ms.`),
      };
    }
    // The runtime's own words may quote the URL: a value, as the URL is.
    const cause = this.#explain?.(error) ??
      told`${(error instanceof Error ? error.message : String(error)).replace(/\.$/, "")}`;
    return {
      reason: "network",
      message: joined(what, ownWords(" failed: "), cause, ownWords(".")),
    };
  }

  /** Stops the timer and the interrupt listener. */
  clear(): void {
    clearTimeout(this.#timer);
    this.#outer?.removeEventListener("abort", this.#onAbort);
  }
}

/**
 * Request deadlines of a run on one timer. A timer per request (set when it
 * is sent, cleared when it ends) cost about 15 µs a request, a few percent
 * of a run against a fast server; here the timer is armed for the earliest
 * deadline only, and a request that ends just leaves the set. Runs send
 * requests with the same timeout one after the other, so a run arms the
 * timer about once per timeout period instead of once per request.
 *
 * @module
 */

interface Watched {
  at: number;
  expire: () => void;
}

/**
 * The deadlines of the requests in flight. {@linkcode Deadlines.close} when
 * the run ends: the timer may still be armed for a request that has ended.
 *
 * @example
 * ```ts
 * import { Deadlines } from "./deadlines.ts";
 * const deadlines = new Deadlines();
 * let expired = "";
 * const release = deadlines.watch(60_000, () => expired += "slow");
 * deadlines.watch(10, () => expired += "fast");
 * await new Promise((resolve) => setTimeout(resolve, 50));
 * release();
 * deadlines.close();
 * if (expired !== "fast") throw new Error(expired);
 * ```
 */
export class Deadlines {
  #pending = new Set<Watched>();
  #timer: ReturnType<typeof setTimeout> | undefined;
  #armedFor = Infinity;

  /**
   * Calls `expire` once `ms` milliseconds have passed, unless the returned
   * release function is called first.
   */
  watch(ms: number, expire: () => void): () => void {
    const watched = { at: performance.now() + ms, expire };
    this.#pending.add(watched);
    if (watched.at < this.#armedFor) this.#arm(watched.at);
    return () => void this.#pending.delete(watched);
  }

  /** Stops the timer; deadlines still pending are dropped. */
  close(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#armedFor = Infinity;
    this.#pending.clear();
  }

  #arm(at: number): void {
    clearTimeout(this.#timer);
    this.#armedFor = at;
    this.#timer = setTimeout(() => this.#fire(), Math.max(1, at - performance.now()));
  }

  #fire(): void {
    this.#timer = undefined;
    this.#armedFor = Infinity;
    const now = performance.now();
    let next = Infinity;
    for (const watched of this.#pending) {
      if (watched.at <= now) {
        this.#pending.delete(watched);
        watched.expire();
      } else next = Math.min(next, watched.at);
    }
    if (next < Infinity) this.#arm(next);
  }
}

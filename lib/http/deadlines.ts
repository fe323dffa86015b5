/**
 * Request deadlines of a run on one timer. A timer per request (set when it
 * is sent, cleared when it ends) cost about 15 µs a request, a few percent
 * of a run against a fast server; here the timer is armed for the earliest
 * deadline only, and a request that ends just leaves the set. Runs send
 * requests with the same timeout one after the other, so a run arms the
 * timer about once per timeout period instead of once per request.
 *
 * The timer is an `AbortSignal.timeout`, not `setTimeout`: Deno's first
 * `setTimeout` loads its Node timers, about 10 ms of every run's start-up.
 * Such a timer cannot be cleared, so disarming removes its listener (a
 * signal nobody listens to keeps no process alive) and it fires unheard.
 *
 * The run's own signal (an interrupt) is heard the same way: one listener
 * per run, which aborts every request in flight, instead of a listener
 * added and removed by each request.
 *
 * @module
 */

interface Watched {
  at: number;
  expire: () => void;
  /** The run's signal this request follows, and how to abort the request when it aborts. */
  run?: AbortSignal;
  interrupt?: () => void;
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
  #timer: AbortSignal | undefined;
  #armedFor = Infinity;
  #onTimer = () => this.#fire();
  /** The run signals heard, each with its one listener (removed on close). */
  #runs = new Map<AbortSignal, () => void>();

  /**
   * Calls `expire` once `ms` milliseconds have passed, unless the returned
   * release function is called first. With `run`, calls `interrupt` instead
   * if that signal aborts first.
   */
  watch(
    ms: number,
    expire: () => void,
    run?: AbortSignal,
    interrupt?: () => void,
  ): () => void {
    // One shape whether or not the request follows a run signal.
    const watched: Watched = { at: performance.now() + ms, expire, run, interrupt };
    this.#pending.add(watched);
    if (watched.at < this.#armedFor) this.#arm(watched.at);
    if (run && interrupt && !this.#runs.has(run)) this.#hear(run);
    return () => void this.#pending.delete(watched);
  }

  /** Stops the timer and stops hearing run signals; deadlines still pending are dropped. */
  close(): void {
    this.#disarm();
    this.#pending.clear();
    for (const [run, listener] of this.#runs) run.removeEventListener("abort", listener);
    this.#runs.clear();
  }

  #hear(run: AbortSignal): void {
    const listener = () => {
      for (const watched of this.#pending) if (watched.run === run) watched.interrupt!();
    };
    this.#runs.set(run, listener);
    run.addEventListener("abort", listener, { once: true });
  }

  #arm(at: number): void {
    this.#disarm();
    this.#armedFor = at;
    this.#timer = AbortSignal.timeout(Math.max(1, Math.ceil(at - performance.now())));
    this.#timer.addEventListener("abort", this.#onTimer, { once: true });
  }

  #disarm(): void {
    this.#timer?.removeEventListener("abort", this.#onTimer);
    this.#timer = undefined;
    this.#armedFor = Infinity;
  }

  #fire(): void {
    this.#disarm();
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

/**
 * One request's deadline: its signal, whether it expired, and how to leave the set.
 *
 * @example
 * ```ts
 * import { Deadlines, type RequestDeadline, requestDeadline } from "./deadlines.ts";
 * const deadlines = new Deadlines();
 * const d: RequestDeadline = requestDeadline(60_000, undefined, deadlines);
 * d.release();
 * deadlines.close();
 * if (d.timedOut() || d.signal.aborted) throw new Error();
 * ```
 */
export interface RequestDeadline {
  /** Aborted when the deadline passes or the run is interrupted. */
  signal: AbortSignal;
  /** Whether it was the deadline (not an interrupt) that aborted the signal. */
  timedOut: () => boolean;
  /** Leaves the run's deadlines: call it when the request ends. */
  release(): void;
}

/**
 * One request's signal: aborted after `ms` or when the run's signal aborts.
 * It leaves `deadlines` as soon as the request ends: a signal per request
 * from `AbortSignal.timeout` (with `AbortSignal.any`) kept every request's
 * signals and timer alive for the whole timeout, 30 s of requests at a time
 * (10,000 signals at 2,000 flows).
 *
 * @example
 * ```ts
 * import { Deadlines, requestDeadline } from "./deadlines.ts";
 * const deadlines = new Deadlines();
 * const { signal, timedOut, release } = requestDeadline(10, undefined, deadlines);
 * await new Promise((resolve) => signal.addEventListener("abort", resolve));
 * release();
 * deadlines.close();
 * if (!timedOut()) throw new Error();
 * ```
 */
export function requestDeadline(
  ms: number,
  run: AbortSignal | undefined,
  deadlines: Deadlines,
): RequestDeadline {
  const controller = new AbortController();
  let expired = false;
  const expire = () => {
    expired = true;
    controller.abort(new DOMException(`No response within ${ms} ms.`, "TimeoutError"));
  };
  if (run?.aborted) controller.abort(run.reason);
  // The run's signal is heard by `deadlines`, once for all its requests.
  const interrupt = run && !run.aborted ? () => controller.abort(run.reason) : undefined;
  return {
    signal: controller.signal,
    timedOut: () => expired,
    release: deadlines.watch(ms, expire, interrupt && run, interrupt),
  };
}

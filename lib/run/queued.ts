/**
 * A reporter whose hooks run while the runner waits for the network: each
 * event is queued and the runner goes on at once; the queue is worked off in
 * the next turn of the event loop, which Deno takes after it has sent the
 * request just started. With `--jobs 1` the runner is otherwise idle while a
 * server answers, so report pieces, console lines and logs cost no wall time
 * as long as they fit in the wait. Events keep their order.
 *
 * @module
 */
import { type Reporter, REPORTER_HOOKS } from "../model/events.ts";

/**
 * A reporter that queues events, and the promise that they have all been handled.
 *
 * @example
 * ```ts
 * import { type QueuedReporter, queueReporter } from "./queued.ts";
 * const queued: QueuedReporter = queueReporter({});
 * await queued.drained();
 * ```
 */
export interface QueuedReporter extends Reporter {
  /**
   * Settles when every queued event has been handled: rejects with the first
   * error a hook threw (events after it are dropped). Closes the queue's
   * event-loop channel, so an idle queue never keeps the process alive.
   */
  drained(): Promise<void>;
}

type Hook = Exclude<keyof Reporter, "onRunEnd">;

const HOOKS = REPORTER_HOOKS.filter((hook): hook is Hook => hook !== "onRunEnd");

/**
 * Wraps `reporter` so its hooks run queued, a turn of the event loop later,
 * from the first flow's end on (the first flow's events are handed over
 * directly, so a one-flow run never opens the queue). A hook call returns at
 * once, unless `limit` events are waiting: then the caller waits until the
 * queue is worked off, so memory stays bounded when reporters are slower
 * than requests. `onRunEnd` first drains the queue.
 * An error a hook throws is thrown by the next hook call, by `onRunEnd` and
 * by {@linkcode QueuedReporter.drained}.
 *
 * @example
 * ```ts
 * import { queueReporter } from "./queued.ts";
 * import type { FlowResult } from "../model/result.ts";
 * const seen: string[] = [];
 * const queued = queueReporter({
 *   onFlowStart: (f) => void seen.push(f.name),
 *   onFlowEnd: (f) => void seen.push(`${f.name} ended`),
 * });
 * await queued.onFlowEnd?.({ name: "first" } as FlowResult); // handed over directly
 * await queued.onFlowStart?.({ file: "a.yaml", name: "a" });
 * await queued.onFlowStart?.({ file: "b.yaml", name: "b" });
 * if (seen.join() !== "first ended") throw new Error("later hooks run a turn later");
 * await queued.drained();
 * if (seen.join() !== "first ended,a,b") throw new Error(seen.join());
 * ```
 */
export function queueReporter(reporter: Reporter, limit = 256): QueuedReporter {
  const events = new EventQueue(reporter, limit);
  const queued: QueuedReporter = { drained: events.drained };
  for (const hook of HOOKS) {
    // onFlowEnd is always there: the first flow's end opens the queue.
    if (hook === "onFlowEnd" || typeof reporter[hook] === "function") {
      (queued as unknown as Record<string, unknown>)[hook] = (...args: unknown[]) =>
        events.queue(hook, args);
    }
  }
  if (typeof reporter.onRunEnd === "function") {
    queued.onRunEnd = async (result) => {
      await events.drained();
      await reporter.onRunEnd!(result);
    };
  }
  return queued;
}

/** The events waiting for a reporter, worked off a turn of the event loop later, in order. */
class EventQueue {
  #events: ([Hook, unknown[]] | undefined)[] = [];
  #head = 0;
  #failure: { error: unknown } | undefined;
  #pumping: Promise<void> | undefined;
  #channel: MessageChannel | undefined;
  #wake: (() => void) | undefined;
  // Until a first flow has ended, events go straight through: a run of one flow gains nothing
  // from the queue, and opening its channel costs a few ms of start-up.
  #direct = true;

  constructor(readonly reporter: Reporter, readonly limit: number) {}

  /** Queues one hook call; waits only when `limit` events are waiting. */
  queue(hook: Hook, args: unknown[]): void | Promise<void> {
    if (this.#failure) return Promise.reject(this.#failure.error);
    if (this.#direct) {
      if (hook === "onFlowEnd") this.#direct = false;
      return this.#call(hook, args);
    }
    this.#events.push([hook, args]);
    this.#pumping ??= this.#pump();
    if (this.#events.length - this.#head >= this.limit) {
      return this.#pumping.then(() => this.#rethrow());
    }
  }

  /** Settles when every queued event has been handled (an arrow: it is passed on unbound). */
  readonly drained = async (): Promise<void> => {
    while (this.#pumping) await this.#pumping;
    this.#channel?.port1.close();
    this.#channel = undefined;
    this.#rethrow();
  };

  /** A macrotask: the turn of the event loop after this one (not a timer: those are clamped). */
  #nextTurn(): Promise<void> {
    return new Promise<void>((resolve) => {
      if (!this.#channel) {
        this.#channel = new MessageChannel();
        this.#channel.port1.onmessage = () => this.#wake?.();
      }
      this.#wake = resolve;
      this.#channel.port2.postMessage(0);
    });
  }

  #call(hook: Hook, args: unknown[]): void | Promise<void> {
    return (this.reporter[hook] as ((...a: unknown[]) => void | Promise<void>) | undefined)
      ?.apply(this.reporter, args);
  }

  async #pump(): Promise<void> {
    await this.#nextTurn();
    while (this.#head < this.#events.length && !this.#failure) {
      const [hook, args] = this.#events[this.#head]!;
      this.#events[this.#head++] = undefined;
      try {
        await this.#call(hook, args);
      } catch (error) {
        this.#failure = { error };
      }
    }
    this.#events.length = this.#head = 0;
    this.#pumping = undefined;
  }

  #rethrow(): void {
    if (this.#failure) throw this.#failure.error;
  }
}

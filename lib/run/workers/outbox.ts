/**
 * What a worker tells main, in the order it happened, posted in batches: a
 * message per reporter event would cost main a task each (tens of thousands
 * a second), so events wait a few milliseconds for company. A secret and a
 * flow's end are posted at once: main and the other workers must know a
 * secret before anything that holds it, and a slot frees for the next flow.
 *
 * @module
 */
import type { Reporter, ReporterHook } from "../../model/events.ts";
import type { FromWorker, WorkerItem } from "./messages.ts";

/** How long an event waits for others before its batch is posted. */
const BATCH_MS = 10;
/** A batch this long is posted at once. */
const BATCH_ITEMS = 256;

/**
 * A worker's outgoing items.
 *
 * @example
 * ```ts
 * import { Outbox } from "./outbox.ts";
 * const posted: unknown[] = [];
 * const outbox = new Outbox((m) => void posted.push(m));
 * outbox.add({ kind: "event", hook: "onFlowStart", args: [{ file: "a.yaml", name: "a" }] });
 * outbox.add({ kind: "secret", value: "s3cr3t-value" });
 * if (posted.length !== 1 || JSON.stringify(posted[0]).indexOf("onFlowStart") < 0) throw new Error();
 * ```
 */
export class Outbox {
  #items: WorkerItem[] = [];
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(readonly post: (message: FromWorker) => void) {}

  /** Adds an item; a secret, a flow's end or a full batch posts the batch now. */
  add(item: WorkerItem): void {
    this.#items.push(item);
    if (item.kind !== "event" || this.#items.length >= BATCH_ITEMS) this.flush();
    else this.#timer ??= setTimeout(() => this.flush(), BATCH_MS);
  }

  /** Posts what waits. */
  flush(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#items.length === 0) return;
    const items = this.#items;
    this.#items = [];
    this.post({ kind: "batch", items });
  }

  /**
   * A reporter that adds the events of `hooks` (those main's reporter has)
   * to the outbox; a flow's end is not one of them: the worker adds it with
   * the flow's place in the run.
   */
  reporter(hooks: readonly ReporterHook[]): Reporter {
    const reporter: Record<string, unknown> = {};
    for (const hook of hooks) {
      if (hook === "onFlowEnd" || hook === "onRunStart" || hook === "onRunEnd") continue;
      reporter[hook] = (...args: unknown[]) => this.add({ kind: "event", hook, args });
    }
    return reporter as Reporter;
  }
}

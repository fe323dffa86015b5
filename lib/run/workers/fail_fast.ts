/**
 * `--fail-fast` over threads: the first flow that did not pass, in shared
 * memory every thread reads before it starts a flow. A message would come
 * too late: a worker starts the next flow it holds the moment one ends,
 * and main may be busy for a while before it reads a worker's news; on one
 * thread no flow starts once one failed, and so it is over threads.
 *
 * The buffer holds which thread noted the first failure (0: none yet), then
 * a region per thread where it writes a failed flow's file before it tries
 * to claim the first place, so a reader that sees the claim reads a whole name.
 *
 * @module
 */

/** Bytes of each thread's region: the name's length, then its UTF-8 bytes. */
const REGION = 4096;

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * The run's first failed flow, shared by its threads.
 *
 * @example
 * ```ts
 * import { SharedFailFast } from "./fail_fast.ts";
 * const main = SharedFailFast.create(2);
 * const worker = new SharedFailFast(main.buffer, 1);
 * worker.fail("flows/a.yaml");
 * main.fail("flows/b.yaml");
 * if (main.failedFlow !== "flows/a.yaml" || worker.failedFlow !== "flows/a.yaml") throw new Error();
 * ```
 */
export class SharedFailFast {
  readonly #head: Int32Array;
  #known: string | undefined;

  /** The flag of a run on `threads` threads, as main (thread 0) holds it. */
  static create(threads: number): SharedFailFast {
    return new SharedFailFast(new SharedArrayBuffer(4 + threads * REGION), 0);
  }

  /** `buffer` as thread `thread` (main 0, each worker its number) uses it. */
  constructor(readonly buffer: SharedArrayBuffer, readonly thread: number) {
    this.#head = new Int32Array(buffer, 0, 1);
  }

  /** What thread `thread` makes its own flag of (`new SharedFailFast(buffer, thread)`). */
  forThread(thread: number): { buffer: SharedArrayBuffer; thread: number } {
    return { buffer: this.buffer, thread };
  }

  /** The file of the first flow that did not pass on any thread, once there is one. */
  get failedFlow(): string | undefined {
    if (this.#known !== undefined) return this.#known;
    const winner = Atomics.load(this.#head, 0);
    if (winner === 0) return undefined;
    const at = 4 + (winner - 1) * REGION;
    const length = Atomics.load(new Int32Array(this.buffer, at, 1), 0);
    // Copied out of shared memory: the decoder takes no shared view.
    return this.#known = decoder.decode(new Uint8Array(this.buffer, at + 4, length).slice());
  }

  /** Notes that the flow of `file` did not pass; the first one noted stays. */
  fail(file: string): void {
    if (Atomics.load(this.#head, 0) !== 0) return;
    const at = 4 + this.thread * REGION;
    const bytes = encoder.encode(file).subarray(0, REGION - 4);
    new Uint8Array(this.buffer, at + 4, bytes.length).set(bytes);
    Atomics.store(new Int32Array(this.buffer, at, 1), 0, bytes.length);
    Atomics.compareExchange(this.#head, 0, 0, this.thread + 1);
  }
}

/**
 * Makes `state.failedFlow` the shared flag's while the pool runs: every read
 * sees a failure any thread noted, every write notes one for all (the first
 * stays). Gives back the plain field it was, with the failure, when done.
 *
 * @example
 * ```ts
 * import { SharedFailFast, shareState } from "./fail_fast.ts";
 * const flag = SharedFailFast.create(2);
 * const state: { failedFlow: string | undefined } = { failedFlow: undefined };
 * const unshare = shareState(state, flag);
 * new SharedFailFast(flag.buffer, 1).fail("flows/a.yaml");
 * const seen = state.failedFlow;
 * unshare();
 * if (seen !== "flows/a.yaml" || state.failedFlow !== "flows/a.yaml") throw new Error();
 * ```
 */
export function shareState(
  state: { failedFlow: string | undefined },
  flag: SharedFailFast,
): () => void {
  Object.defineProperty(state, "failedFlow", {
    get: () => flag.failedFlow,
    set: (file: string | undefined) => file !== undefined && flag.fail(file),
    configurable: true,
    enumerable: true,
  });
  return () => {
    const value = flag.failedFlow;
    Object.defineProperty(state, "failedFlow", {
      value,
      writable: true,
      configurable: true,
      enumerable: true,
    });
  };
}

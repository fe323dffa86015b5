/**
 * A temporary file where bytes wait until they are needed (flows set aside
 * by the loader, response bodies too large for memory). Deno API family:
 * `Deno.makeTempFileSync`/`Deno.openSync` (with the file's `seekSync`,
 * `writeSync` and `readSync`).
 *
 * @module
 */
import type { ByteSpill } from "../model/spill.ts";
import { ScratchBuffer } from "./scratch_buffer.ts";

/** Bytes of a spill are written out in batches of about this many. */
const SPILL_BATCH = 256 * 1024;

/** How {@linkcode byteSpill} sets bytes aside. */
export interface ByteSpillOptions {
  /** The temporary file's name prefix (default `flowrun-flows-`). */
  prefix?: string;
  /** `put` throws when bytes cannot go to disk, instead of keeping them in memory. */
  strict?: boolean;
}

/** A reader of bytes that stay in memory (made apart, so other readers do not keep them). */
function inMemory(bytes: Uint8Array): () => Uint8Array {
  return () => bytes;
}

/** A {@linkcode ByteSpill} in one temporary file, written in batches. */
class FileSpill implements ByteSpill {
  #options: ByteSpillOptions;
  #file: Deno.FsFile | undefined;
  #path: string | undefined;
  #failure: unknown;
  // Bytes not on disk yet (or never, once a write failed), by offset.
  #held = new Map<number, Uint8Array>();
  #heldBytes = 0;
  #written = 0;
  #writable: boolean | undefined;
  // One buffer for every batch (written synchronously, so free again at once).
  #scratch = new ScratchBuffer();

  constructor(options: ByteSpillOptions) {
    this.#options = options;
  }

  // Fields, not methods: callers pass `spill.put` and `spill.close` on as functions.
  put = (bytes: Uint8Array): () => Uint8Array => {
    // Opened at the first put: most runs never set anything aside.
    this.#writable ??= this.#open();
    const strict = this.#options.strict;
    if (!this.#writable && strict) throw this.#failure ?? new Error("The spill is closed.");
    if (!this.#writable || bytes.length === 0) return inMemory(bytes);
    const offset = this.#written + this.#heldBytes;
    this.#held.set(offset, bytes);
    this.#heldBytes += bytes.length;
    if (this.#heldBytes >= SPILL_BATCH) this.#flush();
    if (!this.#writable && strict) throw this.#failure;
    return this.#reader(offset, bytes.length);
  };

  close = (): void => {
    this.#held.clear();
    this.#writable = false;
    try {
      this.#file?.close();
    } catch {
      // Already closed.
    }
    this.#file = undefined;
    try {
      if (this.#path) Deno.removeSync(this.#path);
    } catch {
      // Gone already, or held by another process: a temporary file is never worth an error.
    }
    this.#path = undefined;
  };

  /** Two numbers, never the bytes: a closure in `put` that named `bytes` would keep them all. */
  #reader(offset: number, length: number): () => Uint8Array {
    return () => this.#held.get(offset) ?? this.#readBack(offset, length);
  }

  #open(): boolean {
    try {
      this.#path = Deno.makeTempFileSync({ prefix: this.#options.prefix ?? "flowrun-flows-" });
      this.#file = Deno.openSync(this.#path, { read: true, write: true });
      Deno.removeSync(this.#path);
      this.#path = undefined;
    } catch (error) {
      // Windows keeps an open file; without a temporary directory, bytes stay in memory.
      this.#failure = error;
    }
    return this.#file !== undefined;
  }

  #flush(): void {
    const bytes = this.#scratch.join(this.#held.values(), this.#heldBytes);
    try {
      this.#file!.seekSync(this.#written, Deno.SeekMode.Start);
      for (let done = 0; done < bytes.length;) done += this.#file!.writeSync(bytes.subarray(done));
    } catch (error) {
      // The disk said no: what is held stays in memory, and nothing more is spilled.
      this.#writable = false;
      this.#failure = error;
      return;
    }
    this.#written += bytes.length;
    this.#held.clear();
    this.#heldBytes = 0;
  }

  #readBack(offset: number, length: number): Uint8Array {
    const bytes = new Uint8Array(length);
    this.#file!.seekSync(offset, Deno.SeekMode.Start);
    for (let got = 0; got < length;) {
      const n = this.#file!.readSync(bytes.subarray(got));
      if (n === null) throw new Error("The flow spill ended early.");
      got += n;
    }
    return bytes;
  }
}

/**
 * A temporary file where bytes wait until they are needed: the loader sets
 * aside each flow it will parse again later, so a suite of ten thousand
 * files does not hold them all in memory while it runs. The file is removed
 * as soon as it is open where the system allows it (nothing is left behind
 * by a crash or a signal), else on `close`. Bytes that cannot be written
 * stay in memory; the run never fails for the spill, unless it is `strict`
 * (a response body too large for memory), when `put` throws instead.
 *
 * @example
 * ```ts
 * import { byteSpill } from "./byte_spill.ts";
 * const spill = byteSpill();
 * const a = spill.put(new TextEncoder().encode("name: a\n"));
 * const b = spill.put(new Uint8Array(300_000).fill(98));
 * if (new TextDecoder().decode(a()) !== "name: a\n" || b().length !== 300_000 || b()[299_999] !== 98) {
 *   throw new Error();
 * }
 * spill.close();
 * ```
 */
export function byteSpill(options: ByteSpillOptions = {}): ByteSpill & { close(): void } {
  return new FileSpill(options);
}

/**
 * A spool for reports written flow by flow (see lib/report/streamed.ts):
 * each flow's rendered piece goes to a temporary file as the flow ends and
 * is read back once, in the report's order, when the report is written.
 * Nothing is lost when the disk says no: a piece that cannot be written to
 * the spool stays in memory, and a spool that cannot be opened is memory
 * only. The file is removed when the spool closes.
 *
 * @module
 */
import type { FlowResult } from "../../lib/model/result.ts";
import type { Spool } from "../../lib/report/streamed.ts";
import { ScratchBuffer } from "../../lib/io/mod.ts";

/** Pieces are written out in batches of about this many bytes. */
const BATCH_BYTES = 256 * 1024;

/** A flow's piece waiting in the current batch: encoded at once, kept as text in case the disk says no. */
interface Pending {
  flow: FlowResult;
  bytes: Uint8Array;
  text: string;
}

/** The spool over one temporary file, or memory only when there is none. */
class FileSpool implements Spool {
  readonly #file?: Deno.FsFile;
  readonly #path?: string;
  // Where each flow's piece is: an index into two number lists (no object per flow), or the
  // piece itself when the disk said no.
  readonly #places = new Map<FlowResult, number | string>();
  readonly #offsets: number[] = [];
  readonly #lengths: number[] = [];
  readonly #encoder = new TextEncoder();
  readonly #decoder = new TextDecoder();
  // Pieces are encoded as they come: kept as text until their batch is written, they outlived
  // the young generation and doubled the collector's work.
  #batch: Pending[] = [];
  #batchBytes = 0;
  #end = 0;
  #queue: Promise<void> = Promise.resolve();
  // One buffer for every batch's bytes, joined when its turn comes.
  #scratch = new ScratchBuffer();
  // Pieces are taken back mostly in the order they were put: one read fills a window of the
  // following ones too, instead of a seek and a read per flow.
  #window = { offset: 0, bytes: new Uint8Array(0) };
  // Windows are read into one buffer: each piece is decoded out of it before the next read.
  #readBuffer = new Uint8Array(0);

  constructor(file?: Deno.FsFile, path?: string) {
    this.#file = file;
    this.#path = path;
  }

  async put(flow: FlowResult, text: string): Promise<void> {
    if (!this.#file) return void this.#places.set(flow, text);
    const bytes = this.#encoder.encode(text);
    this.#batch.push({ flow, bytes, text });
    this.#batchBytes += bytes.length;
    if (this.#batchBytes >= BATCH_BYTES) await this.#flush();
  }

  async take(flow: FlowResult): Promise<string | undefined> {
    if (this.#batch.length > 0) await this.#flush();
    await this.#queue;
    const place = this.#places.get(flow);
    if (place === undefined) return undefined;
    this.#places.delete(flow);
    return typeof place === "string"
      ? place
      : await this.#readAt(this.#offsets[place], this.#lengths[place]);
  }

  async close(): Promise<void> {
    this.#batch = [];
    this.#window = { offset: 0, bytes: new Uint8Array(0) };
    this.#readBuffer = new Uint8Array(0);
    await this.#queue.catch(() => {});
    this.#scratch = new ScratchBuffer();
    this.#places.clear();
    this.#offsets.length = 0;
    this.#lengths.length = 0;
    try {
      this.#file?.close();
    } catch {
      // Already closed.
    }
    if (this.#path) await Deno.remove(this.#path).catch(() => {});
  }

  /** Queues the batch's write; a batch the disk refuses stays in memory. */
  #flush(): Promise<void> {
    const pending = this.#batch;
    const total = this.#batchBytes;
    this.#batch = [];
    this.#batchBytes = 0;
    this.#queue = this.#queue.then(async () => {
      if (pending.length === 0) return;
      const bytes = this.#scratch.join(pending.map((p) => p.bytes), total);
      try {
        await this.#write(pending, bytes);
      } catch {
        for (const p of pending) this.#places.set(p.flow, p.text);
      }
    });
    return this.#queue;
  }

  /** Writes a batch's pieces at the end of the file, one after the other, and notes where. */
  async #write(pending: readonly Pending[], bytes: Uint8Array): Promise<void> {
    if (!this.#file) throw new Error("no spool file");
    await this.#file.seek(this.#end, Deno.SeekMode.Start);
    for (let written = 0; written < bytes.length;) {
      written += await this.#file.write(bytes.subarray(written));
    }
    let at = this.#end;
    for (const p of pending) {
      this.#places.set(p.flow, this.#offsets.length);
      this.#offsets.push(at);
      this.#lengths.push(p.bytes.length);
      at += p.bytes.length;
    }
    this.#end = at;
  }

  /** The piece at `offset`, read with the window that holds it. */
  async #readAt(offset: number, length: number): Promise<string> {
    const from = offset - this.#window.offset;
    if (from < 0 || from + length > this.#window.bytes.length) {
      await this.#readWindow(offset, length);
    }
    const at = offset - this.#window.offset;
    return this.#decoder.decode(this.#window.bytes.subarray(at, at + length));
  }

  /** Reads the window that starts at `offset`: at least the piece, else up to a batch. */
  async #readWindow(offset: number, length: number): Promise<void> {
    const size = Math.max(length, Math.min(BATCH_BYTES, this.#end - offset));
    // (A piece far past the usual size is read into a buffer of its own, not kept.)
    if (this.#readBuffer.length < size && size <= 4 * BATCH_BYTES) {
      this.#readBuffer = new Uint8Array(Math.max(size, BATCH_BYTES));
    }
    const bytes = size <= this.#readBuffer.length
      ? this.#readBuffer.subarray(0, size)
      : new Uint8Array(size);
    await this.#file!.seek(offset, Deno.SeekMode.Start);
    let got = 0;
    while (got < bytes.length) {
      const n = await this.#file!.read(bytes.subarray(got));
      if (n === null) break;
      got += n;
    }
    if (got < length) throw new Error("The report spool ended early.");
    this.#window = { offset, bytes: bytes.subarray(0, got) };
  }
}

/**
 * Opens a spool in the system's temporary directory.
 *
 * @example
 * ```ts
 * import { openSpool } from "./spool.ts";
 * const spool = await openSpool();
 * const a = { file: "a.yaml", name: "a", status: "passed" as const, started_at: "", duration_ms: 1, steps: [] };
 * const b = { ...a, name: "b" };
 * await spool.put(a, "piece of a ✓");
 * await spool.put(b, "piece of b");
 * if (await spool.take(b) !== "piece of b" || await spool.take(a) !== "piece of a ✓") throw new Error();
 * if (await spool.take(a) !== undefined) throw new Error("taken once");
 * await spool.close();
 * ```
 */
export async function openSpool(): Promise<Spool> {
  try {
    const path = await Deno.makeTempFile({ prefix: "flowrun-spool-" });
    try {
      return new FileSpool(await Deno.open(path, { read: true, write: true }), path);
    } catch {
      return new FileSpool(undefined, path);
    }
  } catch {
    // No temporary directory to write to: the pieces stay in memory.
    return new FileSpool();
  }
}

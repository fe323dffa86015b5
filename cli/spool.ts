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
import type { FlowResult } from "../lib/model/result.ts";
import type { Spool } from "../lib/report/streamed.ts";
import { ScratchBuffer } from "../lib/io/mod.ts";

/** Pieces are written out in batches of about this many bytes. */
const BATCH_BYTES = 256 * 1024;

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
  let file: Deno.FsFile | undefined;
  let path: string | undefined;
  try {
    path = await Deno.makeTempFile({ prefix: "flowrun-spool-" });
    file = await Deno.open(path, { read: true, write: true });
  } catch {
    // No temporary directory to write to: the pieces stay in memory.
    file = undefined;
  }
  // Where each flow's piece is: an index into two number lists (no object per flow), or the
  // piece itself when the disk said no.
  const places = new Map<FlowResult, number | string>();
  const offsets: number[] = [];
  const lengths: number[] = [];
  const encoder = new TextEncoder();
  const decoder = new TextDecoder();
  // Pieces are encoded as they come: kept as text until their batch is written, they outlived
  // the young generation and doubled the collector's work.
  let batch: { flow: FlowResult; bytes: Uint8Array; text: string }[] = [];
  let batchBytes = 0;
  let end = 0;
  let queue: Promise<void> = Promise.resolve();
  // One buffer for every batch's bytes, joined when its turn comes.
  let scratch = new ScratchBuffer();

  const flush = (): Promise<void> => {
    const pending = batch;
    const total = batchBytes;
    batch = [];
    batchBytes = 0;
    queue = queue.then(async () => {
      if (pending.length === 0) return;
      const bytes = scratch.join(pending.map((p) => p.bytes), total);
      try {
        if (!file) throw new Error("no spool file");
        await file.seek(end, Deno.SeekMode.Start);
        for (let written = 0; written < bytes.length;) {
          written += await file.write(bytes.subarray(written));
        }
        let at = end;
        for (const p of pending) {
          places.set(p.flow, offsets.length);
          offsets.push(at);
          lengths.push(p.bytes.length);
          at += p.bytes.length;
        }
        end = at;
      } catch {
        for (const p of pending) places.set(p.flow, p.text);
      }
    });
    return queue;
  };

  // Pieces are taken back mostly in the order they were put: one read fills a window of the
  // following ones too, instead of a seek and a read per flow.
  let window = { offset: 0, bytes: new Uint8Array(0) };
  // Windows are read into one buffer: each piece is decoded out of it before the next read.
  let readBuffer = new Uint8Array(0);
  const readAt = async (offset: number, length: number): Promise<string> => {
    const from = offset - window.offset;
    if (from < 0 || from + length > window.bytes.length) {
      const size = Math.max(length, Math.min(BATCH_BYTES, end - offset));
      // (A piece far past the usual size is read into a buffer of its own, not kept.)
      if (readBuffer.length < size && size <= 4 * BATCH_BYTES) {
        readBuffer = new Uint8Array(Math.max(size, BATCH_BYTES));
      }
      const bytes = size <= readBuffer.length ? readBuffer.subarray(0, size) : new Uint8Array(size);
      await file!.seek(offset, Deno.SeekMode.Start);
      let got = 0;
      while (got < bytes.length) {
        const n = await file!.read(bytes.subarray(got));
        if (n === null) break;
        got += n;
      }
      if (got < length) throw new Error("The report spool ended early.");
      window = { offset, bytes: bytes.subarray(0, got) };
    }
    const at = offset - window.offset;
    return decoder.decode(window.bytes.subarray(at, at + length));
  };

  return {
    async put(flow, text) {
      if (!file) return void places.set(flow, text);
      const bytes = encoder.encode(text);
      batch.push({ flow, bytes, text });
      batchBytes += bytes.length;
      if (batchBytes >= BATCH_BYTES) await flush();
    },
    async take(flow) {
      if (batch.length > 0) await flush();
      await queue;
      const place = places.get(flow);
      if (place === undefined) return undefined;
      places.delete(flow);
      return typeof place === "string" ? place : await readAt(offsets[place], lengths[place]);
    },
    async close() {
      batch = [];
      window = { offset: 0, bytes: new Uint8Array(0) };
      readBuffer = new Uint8Array(0);
      await queue.catch(() => {});
      scratch = new ScratchBuffer();
      places.clear();
      offsets.length = 0;
      lengths.length = 0;
      try {
        file?.close();
      } catch {
        // Already closed.
      }
      if (path) await Deno.remove(path).catch(() => {});
    },
  };
}

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
import type { FlowResult } from "../lib/result.ts";
import type { Spool } from "../lib/report/streamed.ts";

/** Pieces are written out in batches of about this many bytes. */
const BATCH_BYTES = 256 * 1024;

type Place = { offset: number; length: number } | { text: string };

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
  const places = new Map<FlowResult, Place>();
  const encoder = new TextEncoder();
  const decoder = new TextDecoder();
  let batch: { flow: FlowResult; bytes: Uint8Array; text: string }[] = [];
  let batchBytes = 0;
  let end = 0;
  let queue: Promise<void> = Promise.resolve();

  const flush = (): Promise<void> => {
    const pending = batch;
    batch = [];
    batchBytes = 0;
    queue = queue.then(async () => {
      if (pending.length === 0) return;
      const bytes = new Uint8Array(pending.reduce((n, p) => n + p.bytes.length, 0));
      let at = 0;
      for (const p of pending) {
        bytes.set(p.bytes, at);
        at += p.bytes.length;
      }
      try {
        if (!file) throw new Error("no spool file");
        await file.seek(end, Deno.SeekMode.Start);
        for (let written = 0; written < bytes.length;) {
          written += await file.write(bytes.subarray(written));
        }
        at = end;
        for (const p of pending) {
          places.set(p.flow, { offset: at, length: p.bytes.length });
          at += p.bytes.length;
        }
        end = at;
      } catch {
        for (const p of pending) places.set(p.flow, { text: p.text });
      }
    });
    return queue;
  };

  const readAt = async (offset: number, length: number): Promise<string> => {
    const bytes = new Uint8Array(length);
    await file!.seek(offset, Deno.SeekMode.Start);
    for (let got = 0; got < length;) {
      const n = await file!.read(bytes.subarray(got));
      if (n === null) throw new Error("The report spool ended early.");
      got += n;
    }
    return decoder.decode(bytes);
  };

  return {
    async put(flow, text) {
      if (!file) return void places.set(flow, { text });
      const bytes = encoder.encode(text);
      batch.push({ flow, bytes, text });
      batchBytes += bytes.length;
      if (batchBytes >= BATCH_BYTES) await flush();
    },
    async take(flow) {
      if (batch.length > 0) await flush();
      await queue;
      const place = places.get(flow);
      if (!place) return undefined;
      places.delete(flow);
      return "text" in place ? place.text : await readAt(place.offset, place.length);
    },
    async close() {
      batch = [];
      await queue.catch(() => {});
      places.clear();
      try {
        file?.close();
      } catch {
        // Already closed.
      }
      if (path) await Deno.remove(path).catch(() => {});
    },
  };
}

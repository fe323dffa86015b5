/** Bytes set aside in a temporary file come back whole, from memory or disk. */
import assert from "node:assert/strict";
import { byteSpill } from "../../lib/io/byte_spill.ts";

Deno.test("byteSpill gives back every piece, from disk past a batch, in any order", () => {
  const spill = byteSpill();
  try {
    const pieces: Uint8Array[] = [];
    const readers: (() => Uint8Array)[] = [];
    // About 1.2 MB in pieces of 0–4 KiB: several batches on disk and one still held.
    for (let i = 0; i < 600; i++) {
      const bytes = new Uint8Array((i * 37) % 4096).map((_, j) => (i + j) % 251);
      pieces.push(bytes);
      readers.push(spill.put(bytes));
    }
    const order = pieces.map((_, i) => (i * 263) % pieces.length);
    assert.equal(new Set(order).size, pieces.length);
    for (const i of order) assert.deepEqual(readers[i](), pieces[i], `piece ${i}`);
    // Read twice: a deferred flow may be parsed again for a report of a flow that was not run.
    assert.deepEqual(readers[599](), pieces[599]);
  } finally {
    spill.close();
  }
});

/** A bounded read keeps exactly the bytes read and stops one byte past its limit. */
import assert from "node:assert/strict";
import { BoundedBytes } from "../../lib/io/_bounded_bytes.ts";
import { InputFileError } from "../../lib/io/input_error.ts";

/** Feeds `source` through `got` as a file would, `chunk` bytes a read at most. */
function feed(got: BoundedBytes, source: Uint8Array, chunk: number): Uint8Array {
  let at = 0;
  for (let into = got.next();; into = got.next()) {
    const n = Math.min(chunk, into.length, source.length - at);
    into.set(source.subarray(at, at + n));
    at += n;
    if (!got.took(into, n === 0 ? null : n)) return got.result();
  }
}

Deno.test("a file longer than stat said grows the buffer; a shorter one is cut to size", () => {
  const source = new Uint8Array(200_000).map((_, i) => i % 253);
  assert.deepEqual(feed(new BoundedBytes("f", 10, 1_000_000), source, 4096), source);
  assert.deepEqual(feed(new BoundedBytes("f", 0, 1_000_000), source, 70_000), source);
  assert.deepEqual(feed(new BoundedBytes("f", 500_000, 1_000_000), source, 4096), source);
});

Deno.test("past the limit the read stops with input-too-large, sizes unknown", () => {
  const source = new Uint8Array(100);
  for (const size of [0, 10, 100]) {
    assert.throws(
      () => feed(new BoundedBytes("f", size, 50), source, 7),
      (e: unknown) =>
        e instanceof InputFileError && e.code === "input-too-large" && e.size === undefined,
    );
  }
  assert.equal(feed(new BoundedBytes("f", 50, 50), source.subarray(0, 50), 7).length, 50);
});

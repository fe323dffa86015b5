/** One reused buffer: right bytes every time, and a buffer of its own past 1 MiB. */
import assert from "node:assert/strict";
import { ScratchBuffer } from "../../lib/io/scratch_buffer.ts";

Deno.test("encode gives the UTF-8 of each text, reusing one buffer up to 1 MiB", () => {
  const buffer = new ScratchBuffer();
  const small = buffer.encode("a€😀");
  assert.deepEqual([...small], [...new TextEncoder().encode("a€😀")]);
  const again = buffer.encode("b");
  assert.equal(again.buffer, small.buffer, "the same buffer, reused");
  const big = "x".repeat(400_000);
  assert.equal(new TextDecoder().decode(buffer.encode(big)), big);
  const huge = buffer.encode("y".repeat(2_000_000));
  assert.equal(huge.length, 2_000_000);
  assert.notEqual(huge.buffer, buffer.encode("z").buffer, "past 1 MiB a buffer of its own");
});

Deno.test("join puts pieces one after the other, of any total size", () => {
  const buffer = new ScratchBuffer();
  const pieces = [new Uint8Array([1, 2]), new Uint8Array(0), new Uint8Array([3])];
  assert.deepEqual([...buffer.join(pieces, 3)], [1, 2, 3]);
  const large = [new Uint8Array(700_000).fill(1), new Uint8Array(700_000).fill(2)];
  const joined = buffer.join(large, 1_400_000);
  assert.equal(joined.length, 1_400_000);
  assert.deepEqual([joined[699_999], joined[700_000]], [1, 2]);
});

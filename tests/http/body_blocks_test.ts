import assert from "node:assert/strict";
import { BodyBlocks, type ClosableSpill } from "../../lib/http/body_blocks.ts";
import { RequestError } from "../../lib/http/request_error.ts";
import type { SpilledBody } from "../../lib/http/response.ts";

/** A spill that keeps its pieces in memory, and says whether it was closed. */
function memorySpill(): ClosableSpill & { closed: boolean } {
  const spill = {
    closed: false,
    put(bytes: Uint8Array) {
      const copy = bytes.slice();
      return () => copy;
    },
    close() {
      spill.closed = true;
    },
  };
  return spill;
}

Deno.test("a body within the memory cap is held and decoded as UTF-8", () => {
  const body = new BodyBlocks(1024, () => assert.fail("not spilled"));
  const text = "héllo ✓ ".repeat(20);
  const bytes = new TextEncoder().encode(text);
  // Split inside a multi-byte character: the decoder must join it back.
  body.add(bytes.subarray(0, 2));
  body.add(bytes.subarray(2));
  assert.equal(body.size, bytes.length);
  assert.equal(body.finish(), text);
});

Deno.test("a body past the memory cap moves to the spill, its head kept for reports", () => {
  const spill = memorySpill();
  const body = new BodyBlocks(100, () => spill);
  const bytes = new Uint8Array(70_000).fill(0x61);
  body.add(bytes.subarray(0, 50_000));
  body.add(bytes.subarray(50_000));
  const spilled = body.finish() as SpilledBody;
  assert.equal(spilled.bytes, 70_000);
  // The head is what was held when the body passed the cap, at most 64 KiB of it.
  assert.ok(spilled.head.length > 100 && spilled.head.length <= 64 * 1024);
  assert.match(spilled.head, /^a+$/);
  assert.match(spilled.reason, /more than the 100 bytes held in memory/);
  const total = [...spilled.chunks()].reduce((n, chunk) => n + chunk.length, 0);
  assert.equal(total, 70_000);
  spilled.close();
  assert.ok(spill.closed);
});

Deno.test("a spill that cannot be opened is a body-too-large error saying what to do", () => {
  const body = new BodyBlocks(10, () => {
    throw new Error("no space left on device");
  });
  assert.throws(
    () => {
      body.add(new Uint8Array(20_000));
      body.finish();
    },
    (error) =>
      error instanceof RequestError && error.code === "body-too-large" &&
      /free disk space or set TMPDIR/.test(error.message),
  );
});

/** Once the run is interrupted, a write that goes through may wait one second more, no longer. */
import assert from "node:assert/strict";
import { ArtifactWriteError } from "../../lib/io/artifact_error.ts";
import { boundBy, INTERRUPTED_WRITE_MS, UNBOUNDED } from "../../lib/io/interrupt.ts";

Deno.test("without an interrupt a wait is left as it is", () => {
  assert.equal(boundBy("x", undefined), UNBOUNDED);
});

Deno.test("a wait that ends in time is not touched by the interrupt", async () => {
  const interrupt = new AbortController();
  const bound = boundBy("x", interrupt.signal);
  assert.equal(await bound(Promise.resolve(7)), 7);
  interrupt.abort();
  assert.equal(await bound(new Promise((r) => setTimeout(() => r(8), 10))), 8);
});

Deno.test("a wait still pending a second after the interrupt is given up as interrupted", async () => {
  const interrupt = new AbortController();
  const bound = boundBy("out/pipe", interrupt.signal);
  const started = performance.now();
  const waiting = bound(new Promise<never>(() => {})).catch((e) => e);
  setTimeout(() => interrupt.abort(), 50);
  const error = await waiting;
  const waited = performance.now() - started;
  assert.ok(error instanceof ArtifactWriteError);
  assert.equal(error.code, "interrupted");
  assert.equal(
    error.message,
    'Cannot write "out/pipe": Nothing took the bytes within 1 s of the interrupt.',
  );
  assert.ok(waited >= 50 + INTERRUPTED_WRITE_MS - 20, `waited ${waited} ms`);
});

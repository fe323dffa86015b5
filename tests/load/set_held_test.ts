/**
 * Held flows: a checked flow kept as its bytes (and, with a spill, its
 * checked JSON behind them) loads back as the flow that was checked, with
 * its tag selection, and puts its bytes back for the manifest; only a flow
 * that needs nothing ahead of the run may be held.
 */
import assert from "node:assert/strict";
import { deferrable, holdFlow, isHeld, type Reload } from "../../lib/load/set_held.ts";
import { loadFlow } from "../../lib/load/load_flow.ts";
import { compileTags } from "../../lib/select/tags.ts";
import type { ByteSpill } from "../../lib/model/spill.ts";
import "../support/engines.ts";

const text =
  "name: a\nsteps:\n  - name: r\n    tags: [read]\n    request: {url: http://x.test/r}\n" +
  "  - name: w\n    tags: [write]\n    request: {url: http://x.test/w}\n";
const bytes = new TextEncoder().encode(text);

function memorySpill(): ByteSpill & { pieces: Uint8Array[] } {
  const pieces: Uint8Array[] = [];
  return {
    pieces,
    put(piece) {
      pieces.push(piece);
      return () => piece;
    },
  };
}

Deno.test("held in memory: parsed again, tags applied, bytes back in the map", async () => {
  const flow = loadFlow(text, "a.yaml").flow!;
  const held = new Map<string, Uint8Array>();
  const reload: Reload = { held, options: {}, tagTest: compileTags("read") };
  const deferred = holdFlow({ file: "a.yaml", flow, bytes, spill: undefined, reload });
  assert.ok(isHeld(deferred));
  assert.equal(deferred.bytes(), bytes);
  const loaded = await deferred.load();
  assert.deepEqual(loaded.steps.map((s) => s.name), ["r"]);
  assert.equal(held.get("a.yaml"), bytes);
});

Deno.test("held in a spill: bytes and checked JSON in one piece, the bytes a copy", async () => {
  const flow = loadFlow(text, "a.yaml").flow!;
  const held = new Map([["a.yaml", bytes]]);
  const spill = memorySpill();
  const deferred = holdFlow({
    file: "a.yaml",
    flow,
    bytes,
    spill,
    reload: { held, options: {}, tagTest: undefined },
  });
  assert.equal(held.has("a.yaml"), false, "the bytes wait in the spill");
  assert.equal(spill.pieces.length, 1);
  assert.ok(spill.pieces[0].length > bytes.length, "the checked JSON waits behind the bytes");
  assert.deepEqual(deferred.bytes(), bytes);
  assert.notEqual(deferred.bytes().buffer, spill.pieces[0].buffer);
  assert.deepEqual(await deferred.load(), JSON.parse(JSON.stringify(flow)));
  assert.deepEqual(held.get("a.yaml"), bytes);
});

Deno.test("only flows that need nothing ahead of the run are deferrable", () => {
  const flow = loadFlow(text, "a.yaml").flow!;
  assert.equal(deferrable(flow), true);
  assert.equal(deferrable({ ...flow, options: { insecure: true } }), false);
  assert.equal(deferrable({ ...flow, rows: [] }), false);
  const schema = loadFlow(
    "name: s\nsteps:\n  - name: a\n    request: {url: http://x.test}\n    assert: {schema: {type: object}}\n",
    "s.yaml",
  ).flow!;
  assert.equal(deferrable(schema), false);
  assert.equal(isHeld(flow), false);
});

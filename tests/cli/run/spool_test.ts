/**
 * The report spool (`cli/run/spool.ts`): every piece comes back as it was put,
 * whatever its characters and size, in the order reports take them or any
 * other, across batches, read windows and one-off buffers.
 */
import assert from "node:assert/strict";
import { openSpool } from "../../../cli/run/spool.ts";
import type { FlowResult } from "../../../lib/model/result.ts";

const flowNamed = (name: string): FlowResult => ({
  file: `${name}.yaml`,
  name,
  status: "passed",
  started_at: "",
  duration_ms: 0,
  steps: [],
});

/** Text of `length` units mixing ASCII, two- and three-byte characters and astral pairs. */
function mixed(seed: number, length: number): string {
  const parts = ["a", "é", "✓", "😀", "\n", '"', "\\u0000"];
  let text = "";
  for (let i = 0; text.length < length; i++) text += parts[(seed * 7 + i * 13) % parts.length];
  return text;
}

Deno.test("the spool gives back every piece as put, in put order and out of it", async () => {
  const spool = await openSpool();
  try {
    const flows = Array.from({ length: 1500 }, (_, i) => flowNamed(`f${i}`));
    const texts = flows.map((_, i) =>
      // One piece far larger than a batch and a read window, one empty.
      i === 700 ? mixed(i, 1_500_000) : i === 3 ? "" : mixed(i, (i * 97) % 3000)
    );
    for (const [i, flow] of flows.entries()) await spool.put(flow, texts[i]);
    // The first half in order (as a report takes them), the rest from the end.
    for (let i = 0; i < 750; i++) assert.equal(await spool.take(flows[i]), texts[i], `piece ${i}`);
    for (let i = 1499; i >= 750; i--) {
      assert.equal(await spool.take(flows[i]), texts[i], `piece ${i}`);
    }
    assert.equal(await spool.take(flows[0]), undefined, "taken once");
  } finally {
    await spool.close();
  }
});

import assert from "node:assert/strict";
import { makeContext } from "../../lib/run/make_context.ts";
import type { FlowResult } from "../../lib/model/result.ts";

Deno.test("defaults are made concrete and secret parameters are masked from the start", () => {
  const seen: string[] = [];
  const ctx = makeContext({
    params: new Map([["password", "pw1"], ["user", "ann"]]),
    onSecret: (v) => void seen.push(v),
  });
  ctx.deadlines?.close();
  assert.match(ctx.runId, /^\d{8}-\d{6}-[0-9a-f]{6}$/);
  assert.equal(ctx.timeoutMs, 30_000);
  assert.equal(ctx.verbose, 0);
  assert.deepEqual(seen, ["pw1"]);
});

Deno.test("a secret environment variable is registered when it is read, its name tested once", () => {
  const seen: string[] = [];
  const ctx = makeContext({
    env: (name) => ({ API_TOKEN: "t0k", HOME: "/home/ann" })[name],
    secrets: ["HOME"],
    onSecret: (v) => void seen.push(v),
  });
  ctx.deadlines?.close();
  assert.equal(ctx.env("API_TOKEN"), "t0k");
  assert.equal(ctx.env("HOME"), "/home/ann");
  assert.equal(ctx.env("NOPE"), undefined);
  assert.deepEqual(seen, ["t0k", "/home/ann"]);
});

Deno.test("with compact the reporter sees the whole flow before it is shrunk; overlap queues events", async () => {
  const steps: number[] = [];
  const ctx = makeContext({
    compact: true,
    overlapReporter: true,
    reporter: { onFlowEnd: (f) => void steps.push(f.steps.length) },
  });
  ctx.deadlines?.close();
  const flow = {
    file: "f.yaml",
    name: "f",
    status: "passed",
    started_at: "",
    duration_ms: 0,
    steps: [],
  } as FlowResult;
  await ctx.reporter.onFlowEnd?.(flow);
  await ctx.settle?.();
  assert.deepEqual(steps, [0]);
  assert.equal(typeof ctx.settle, "function");
});

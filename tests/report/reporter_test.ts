import assert from "node:assert/strict";
import { combineReporters, type Reporter } from "../../lib/report/reporter.ts";

const flow = { file: "a.yaml", name: "a" };

Deno.test("combined reporters are called in order, each after the previous one's promise", async () => {
  const seen: string[] = [];
  const slow: Reporter = {
    async onFlowStart() {
      seen.push("slow:start");
      await new Promise((resolve) => setTimeout(resolve, 20));
      seen.push("slow:end");
    },
  };
  const sync: Reporter = { onFlowStart: () => void seen.push("sync") };
  const later: Reporter = {
    onFlowStart() {
      seen.push("later");
      return Promise.resolve();
    },
  };
  const both = combineReporters(sync, slow, later, sync);
  await both.onFlowStart?.(flow);
  assert.deepEqual(seen, ["sync", "slow:start", "slow:end", "later", "sync"]);
});

Deno.test("a hook no combined reporter has is absent; all-synchronous hooks return nothing", () => {
  const calls: string[] = [];
  class Counting implements Reporter {
    prefix = "c";
    onStepEnd() {
      calls.push(`${this.prefix}:step`);
    }
  }
  const combined = combineReporters({ onRunEnd() {} }, { onStepEnd: () => void calls.push("o") });
  assert.equal(combined.onRequest, undefined);
  assert.equal(combined.onAttempt, undefined);
  assert.equal(typeof combined.onRunEnd, "function");
  // Methods of a class instance count, and keep their `this`.
  const withClass = combineReporters(new Counting(), { onStepEnd: () => void calls.push("o") });
  const step = { name: "s" } as Parameters<NonNullable<Reporter["onStepEnd"]>>[1];
  assert.equal(withClass.onStepEnd?.(flow, step), undefined);
  assert.deepEqual(calls, ["c:step", "o"]);
});

Deno.test("a reporter's failure reaches the caller, and later reporters are not called", async () => {
  const seen: string[] = [];
  const failing = combineReporters(
    {
      onFlowEnd: () => {
        throw new Error("sync failure");
      },
    },
    { onFlowEnd: () => void seen.push("after") },
  );
  const result = { ...flow, status: "passed" as const, started_at: "", duration_ms: 0, steps: [] };
  await assert.rejects(async () => await failing.onFlowEnd?.(result), /sync failure/);
  const rejecting = combineReporters(
    { onFlowEnd: () => Promise.reject(new Error("async failure")) },
    { onFlowEnd: () => void seen.push("after") },
  );
  await assert.rejects(async () => await rejecting.onFlowEnd?.(result), /async failure/);
  assert.deepEqual(seen, []);
});

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

Deno.test("a reporter's failure reaches the caller after the later reporters were called", async () => {
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
  assert.deepEqual(seen, ["after", "after"]);
});

/** One call of every hook, with arguments of the right shape. */
const EVENTS: [keyof Reporter, unknown[]][] = [
  ["onRunStart", [{ run_id: "r", runner_version: "0", started_at: "", files: ["a.yaml"] }]],
  ["onFlowStart", [flow]],
  ["onRequest", [flow, { step: "s", attempt: 1, method: "GET", url: "http://x/" }]],
  ["onAttempt", [flow, { step: "s", attempt: 1, method: "GET", url: "http://x/", duration_ms: 1 }]],
  ["onStepEnd", [flow, { name: "s", status: "passed" }]],
  ["onFlowEnd", [{ ...flow, status: "passed", started_at: "", duration_ms: 0, steps: [] }]],
  ["onRunEnd", [{ run_id: "r", status: "passed", flows: [] }]],
];

/** A reporter whose every hook fails: synchronously, or by a rejected promise. */
function throwing(label: string, async: boolean): Reporter {
  const reporter: Record<string, unknown> = {};
  for (const [hook] of EVENTS) {
    reporter[hook] = () => {
      const error = new Error(`${label} broke in ${hook}`);
      if (async) return Promise.reject(error);
      throw error;
    };
  }
  return reporter as Reporter;
}

/** A reporter that records every event it hears, by hook name. */
function recording(seen: string[], async: boolean): Reporter {
  const reporter: Record<string, unknown> = {};
  for (const [hook] of EVENTS) {
    reporter[hook] = () => {
      seen.push(hook);
      return async ? Promise.resolve() : undefined;
    };
  }
  return reporter as Reporter;
}

/** Calls one hook of a reporter as the runner does, giving what it threw or rejected with. */
async function failureOf(reporter: Reporter, hook: keyof Reporter, args: unknown[]) {
  try {
    await (reporter[hook] as (...a: unknown[]) => void | Promise<void>)(...args);
  } catch (error) {
    return error;
  }
  return undefined;
}

for (const async of [false, true]) {
  Deno.test(`a reporter that throws in every hook (${async ? "rejecting" : "synchronously"}) stops no other reporter, and each error is reported`, async () => {
    const seen: string[] = [];
    const combined = combineReporters(throwing("first", async), recording(seen, async));
    for (const [hook, args] of EVENTS) {
      const error = await failureOf(combined, hook, args);
      // One failure reaches the caller as it was thrown: the message a user sees is unchanged.
      assert.ok(error instanceof Error, hook);
      assert.equal(error.message, `first broke in ${hook}`);
    }
    assert.deepEqual(seen, EVENTS.map(([hook]) => hook));
  });
}

Deno.test("when several reporters fail in one hook, the caller gets them all, with their positions", async () => {
  const seen: string[] = [];
  const combined = combineReporters(
    throwing("first", false),
    recording(seen, false),
    throwing("third", true),
  );
  const error = await failureOf(combined, "onStepEnd", EVENTS[4][1]);
  assert.ok(error instanceof AggregateError);
  assert.deepEqual(
    error.errors.map((e: Error) => e.message),
    ["first broke in onStepEnd", "third broke in onStepEnd"],
  );
  assert.match(error.message, /^2 reporters failed in onStepEnd:\n/);
  assert.match(error.message, /reporter 1 of 3: Error: first broke in onStepEnd/);
  assert.match(error.message, /reporter 3 of 3: Error: third broke in onStepEnd/);
  assert.deepEqual(seen, ["onStepEnd"]);
});

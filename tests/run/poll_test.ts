import assert from "node:assert/strict";
import { pollUntil } from "../../lib/run/poll.ts";
import { HANG_MS, TIMING } from "../support/timing.ts";

/** An attempt function that records the attempt numbers it was called with. */
function recorder<T>(results: (n: number) => T) {
  const calls: number[] = [];
  const times: number[] = [];
  const attempt = (n: number): Promise<T> => {
    calls.push(n);
    times.push(performance.now());
    return Promise.resolve(results(n));
  };
  return { attempt, calls, times };
}

Deno.test("pollUntil numbers attempts from 1 and stops when done holds", async () => {
  const { attempt, calls } = recorder((n) => n * 10);
  const outcome = await pollUntil(attempt, (v) => v === 30, { maxAttempts: 5, sleepMs: 1 });
  assert.deepEqual(outcome, { last: 30, attempts: 3, satisfied: true });
  assert.deepEqual(calls, [1, 2, 3]);
});

Deno.test("pollUntil makes a single attempt when the first result is done", async () => {
  const { attempt, calls } = recorder(() => "ready");
  const started = performance.now();
  // A pause would be ten minutes: the minute that tells a hang from a busy machine is no clock.
  const outcome = await pollUntil(attempt, (v) => v === "ready", {
    maxAttempts: 5,
    sleepMs: 600_000,
  });
  assert.deepEqual(outcome, { last: "ready", attempts: 1, satisfied: true });
  assert.deepEqual(calls, [1]);
  assert.ok(performance.now() - started < HANG_MS, "a satisfied first attempt must not sleep");
});

Deno.test("pollUntil stops after maxAttempts and returns the last result unsatisfied", async () => {
  const { attempt, calls } = recorder((n) => ({ state: "pending", n }));
  const outcome = await pollUntil(attempt, (v) => v.state === "ready", {
    maxAttempts: 4,
    sleepMs: 1,
  });
  assert.deepEqual(outcome, { last: { state: "pending", n: 4 }, attempts: 4, satisfied: false });
  assert.deepEqual(calls, [1, 2, 3, 4]);
});

Deno.test("pollUntil reports success on the very last allowed attempt as satisfied", async () => {
  const { attempt } = recorder((n) => n);
  const outcome = await pollUntil(attempt, (v) => v === 3, { maxAttempts: 3, sleepMs: 1 });
  assert.deepEqual(outcome, { last: 3, attempts: 3, satisfied: true });
});

Deno.test("pollUntil with maxAttempts 1 makes one attempt and does not sleep", async () => {
  const { attempt, calls } = recorder(() => false);
  const started = performance.now();
  const outcome = await pollUntil(attempt, (v) => v, { maxAttempts: 1, sleepMs: 600_000 });
  assert.deepEqual(outcome, { last: false, attempts: 1, satisfied: false });
  assert.deepEqual(calls, [1]);
  assert.ok(performance.now() - started < HANG_MS, "no pause after the only attempt");
});

Deno.test("pollUntil sleeps between attempts", async () => {
  const { attempt, times } = recorder(() => 0);
  const started = performance.now();
  const outcome = await pollUntil(attempt, () => false, { maxAttempts: 3, sleepMs: 20 });
  const elapsed = performance.now() - started;
  assert.equal(outcome.attempts, 3);
  // Two pauses of 20 ms; a few ms of slack for timer granularity.
  assert.ok(elapsed >= 35, `3 attempts with 20 ms pauses took only ${elapsed} ms`);
  for (let i = 1; i < times.length; i++) {
    const gap = times[i] - times[i - 1];
    assert.ok(gap >= 15, `gap ${i} was ${gap} ms`);
  }
});

Deno.test(`pollUntil does not sleep after the last attempt ${TIMING}`, async () => {
  const { attempt } = recorder(() => 0);
  const started = performance.now();
  await pollUntil(attempt, () => false, { maxAttempts: 2, sleepMs: 150 });
  const elapsed = performance.now() - started;
  // One pause: at least 150 ms; a pause after the last attempt would make it at least 300 ms.
  assert.ok(elapsed >= 140, `expected one pause, took ${elapsed} ms`);
  assert.ok(elapsed < 290, `expected no pause after the last attempt, took ${elapsed} ms`);
});

Deno.test("pollUntil with sleepMs 0 polls without pausing", async () => {
  const { attempt, calls } = recorder((n) => n);
  const outcome = await pollUntil(attempt, (v) => v === 50, { maxAttempts: 100, sleepMs: 0 });
  assert.deepEqual(outcome, { last: 50, attempts: 50, satisfied: true });
  assert.equal(calls.length, 50);
});

Deno.test("pollUntil ends a pause early when the signal aborts", async () => {
  const controller = new AbortController();
  const { attempt } = recorder(() => "pending");
  const timer = setTimeout(() => controller.abort(), 30);
  const started = performance.now();
  try {
    const outcome = await pollUntil(attempt, (v) => v === "ready", {
      maxAttempts: 10,
      sleepMs: 600_000,
      signal: controller.signal,
    });
    const elapsed = performance.now() - started;
    assert.ok(elapsed < HANG_MS, `abort must end the 10 min pause early, took ${elapsed} ms`);
    assert.equal(outcome.satisfied, false);
    assert.equal(outcome.last, "pending");
    assert.ok(outcome.attempts < 10, `polling went on after abort: ${outcome.attempts}`);
  } finally {
    clearTimeout(timer);
  }
});

Deno.test(
  {
    name: "pollUntil starts no attempt after the signal aborted during a pause",
  },
  async () => {
    const controller = new AbortController();
    const { attempt, calls } = recorder(() => "pending");
    const timer = setTimeout(() => controller.abort(), 30);
    try {
      const outcome = await pollUntil(attempt, () => false, {
        maxAttempts: 10,
        sleepMs: 10_000,
        signal: controller.signal,
      });
      assert.deepEqual(calls, [1]);
      assert.equal(outcome.attempts, 1);
    } finally {
      clearTimeout(timer);
    }
  },
);

Deno.test("pollUntil with an already aborted signal makes one attempt and returns", async () => {
  const { attempt, calls } = recorder(() => "pending");
  const started = performance.now();
  const outcome = await pollUntil(attempt, () => false, {
    maxAttempts: 10,
    sleepMs: 600_000,
    signal: AbortSignal.abort(),
  });
  assert.deepEqual(outcome, { last: "pending", attempts: 1, satisfied: false });
  assert.deepEqual(calls, [1]);
  assert.ok(performance.now() - started < HANG_MS);
});

Deno.test("pollUntil still reports a satisfied attempt when the signal is aborted", async () => {
  const { attempt } = recorder(() => "ready");
  const outcome = await pollUntil(attempt, (v) => v === "ready", {
    maxAttempts: 3,
    sleepMs: 1,
    signal: AbortSignal.abort(),
  });
  assert.deepEqual(outcome, { last: "ready", attempts: 1, satisfied: true });
});

Deno.test("pollUntil propagates an exception from attempt and stops polling", async () => {
  const calls: number[] = [];
  const failure = new Error("boom on 2");
  await assert.rejects(
    pollUntil(
      (n) => {
        calls.push(n);
        return n === 2 ? Promise.reject(failure) : Promise.resolve(n);
      },
      () => false,
      { maxAttempts: 5, sleepMs: 1 },
    ),
    (e: unknown) => e === failure,
  );
  assert.deepEqual(calls, [1, 2]);
});

Deno.test("pollUntil propagates an exception thrown synchronously by attempt", async () => {
  await assert.rejects(
    pollUntil(
      () => {
        throw new TypeError("sync");
      },
      () => true,
      { maxAttempts: 3, sleepMs: 1 },
    ),
    { name: "TypeError", message: "sync" },
  );
});

Deno.test("pollUntil propagates an exception from done", async () => {
  await assert.rejects(
    pollUntil(
      () => Promise.resolve(1),
      () => {
        throw new RangeError("bad check");
      },
      { maxAttempts: 3, sleepMs: 1 },
    ),
    { name: "RangeError", message: "bad check" },
  );
});

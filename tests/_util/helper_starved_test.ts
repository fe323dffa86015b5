/**
 * A guarded check's limit is work, not the wall clock: on a machine so busy
 * that the helper thread hardly runs (a laptop during a build: "schema did
 * not compile within 2 s" on a two-line schema, issue 54), the wait goes on
 * while the helper has used less CPU than the limit, up to a hang guard of
 * ten times the limit. Starvation is stood in for by a task that sleeps: it
 * takes wall time and no CPU, as a starved thread does.
 */
import assert from "node:assert/strict";
import { GuardError, prepareGuard, runGuarded } from "../../lib/_util/time_guard.ts";

const sleeper = {
  name: "starved-sleeper",
  source:
    "return (ms) => { Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms); return 'done'; };",
  imports: {},
};

Deno.test("a check the machine starves (wall time, little CPU) finishes past its wall-clock limit", async () => {
  await prepareGuard();
  // Three times the limit in wall time, next to no CPU: a busy machine, not hard work.
  assert.equal(runGuarded(sleeper, 600, 200), "done");
});

Deno.test("a check starved for longer than ten times its limit is given up, saying the machine was busy", async () => {
  await prepareGuard();
  // A fresh helper thread first: its start-up's CPU is not the task's. (No spinning task here:
  // Deno 2.9 does not stop a terminated thread that spins, so its CPU would count as this one's;
  // tests/_util/time_guard_test.ts holds the limit on work that spins.)
  assert.equal(runGuarded(sleeper, 1, 1000), "done");
  assert.throws(() => runGuarded(sleeper, 60_000, 100), (error: unknown) => {
    assert.ok(error instanceof GuardError);
    assert.equal(error.code, "check-timeout");
    assert.match(error.message, /busy/);
    return true;
  });
});

import assert from "node:assert/strict";
import {
  loadWorkerThreads,
  runOnHelper,
  workerThreadsLoaded,
} from "../../lib/_util/helper_thread.ts";
import { GuardError } from "../../lib/_util/guard_error.ts";

Deno.test("a task is defined once on the helper and run with each input; each wait is reported", async () => {
  await loadWorkerThreads();
  assert.ok(workerThreadsLoaded());
  const waits: number[] = [];
  const task = {
    name: "helper-thread-test-count",
    source: "let n = 0; return (step) => (n += step);",
    imports: {},
  };
  assert.equal(runOnHelper(task, 2, 1000, (ms) => waits.push(ms)), 2);
  assert.equal(runOnHelper(task, 3, 1000, (ms) => waits.push(ms)), 5, "state kept: defined once");
  assert.equal(waits.length, 3, "the definition and two runs");
  const slow = {
    name: "helper-thread-test-spin",
    source: "return () => { for (;;) {} };",
    imports: {},
  };
  assert.throws(() => runOnHelper(slow, null, 100, () => {}), GuardError);
  // The thread was stopped; a new one defines the task again.
  assert.equal(runOnHelper(task, 1, 1000, () => {}), 1);
});

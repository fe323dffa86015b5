/** A step's `loop` (lib/load/loop.ts). */
import assert from "node:assert/strict";
import { DEFAULT_SLEEP_MS } from "../../lib/load/loop.ts";
import { codesOf, loadStepFlow, stepOf } from "../support/step_flow.ts";

Deno.test("bounded attempts, a pause, and the checks to wait for", () => {
  const loop = stepOf([
    "loop: {max_attempts: 3, sleep_ms: 250, until: {json: [{path: $.json.state, equals: ready}]}}",
  ]).loop;
  assert.equal(loop?.maxAttempts, 3);
  assert.equal(loop?.sleepMs, 250);
  assert.equal(loop?.until.paths[0].path.source, "$.json.state");
  assert.equal(
    stepOf(["loop: {max_attempts: 3, until: {status: 200}}"]).loop?.sleepMs,
    DEFAULT_SLEEP_MS,
  );
});

Deno.test("an until with no condition; a missing bound", () => {
  const [empty] = loadStepFlow(["loop: {max_attempts: 3, until: {json: []}}"]).problems;
  assert.equal(empty.message, '"loop" of step "s" has no condition in "until".');
  assert.deepEqual(codesOf(["loop: {until: {status: 200}}"]), ["missing-key"]);
  assert.deepEqual(codesOf(["loop: {max_attempts: 0, until: {status: 200}}"]), ["wrong-type"]);
});

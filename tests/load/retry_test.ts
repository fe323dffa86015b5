/** A request's `retry` (lib/load/retry.ts). */
import assert from "node:assert/strict";
import { DEFAULT_RETRY_DELAY_MS, MAX_RETRIES } from "../../lib/load/retry.ts";
import { codesOf, stepOf } from "../support/step_flow.ts";

Deno.test("a count retries network failures after the default first wait", () => {
  assert.deepEqual(stepOf(["options: {retry: 3}"]).options?.retry, {
    count: 3,
    on: ["network"],
    delayMs: DEFAULT_RETRY_DELAY_MS,
  });
  assert.deepEqual(
    stepOf(["options: {retry: {count: 2, on: [network, 503], delay: 1s}}"]).options?.retry,
    {
      count: 2,
      on: ["network", 503],
      delayMs: 1000,
    },
  );
});

Deno.test("counts are bounded; on lists network and status codes", () => {
  assert.deepEqual(codesOf([`options: {retry: ${MAX_RETRIES + 1}}`]), ["out-of-range"]);
  assert.deepEqual(codesOf(["options: {retry: {count: 1, on: [timeout, 700]}}"]), [
    "wrong-type",
    "wrong-type",
  ]);
  assert.deepEqual(codesOf(["options: {retry: {on: [503]}}"]), ["missing-key"]);
});

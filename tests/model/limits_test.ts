import assert from "node:assert/strict";
import { MAX_TIMEOUT_MS, parseTimeoutMs } from "../../lib/model/limits.ts";
import { UsageError } from "../../lib/model/errors.ts";

Deno.test("--timeout is a whole number of milliseconds from 1 to the timer's limit", () => {
  assert.equal(parseTimeoutMs(" 250 "), 250);
  assert.equal(parseTimeoutMs(String(MAX_TIMEOUT_MS)), MAX_TIMEOUT_MS);
  for (const bad of ["0", "-1", "1.5", "1e3", "0x10", "", String(MAX_TIMEOUT_MS + 1)]) {
    assert.throws(
      () => parseTimeoutMs(bad),
      (error) => error instanceof UsageError && error.code === "bad-timeout",
      bad,
    );
  }
});

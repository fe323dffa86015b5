/** Assertion helpers about errors. */
import assert from "node:assert/strict";
import { UsageError } from "../../lib/model/errors.ts";

/** Runs `fn` and returns the UsageError it throws. */
export function usageError(fn: () => unknown): UsageError {
  try {
    fn();
  } catch (error) {
    assert.ok(error instanceof UsageError, `expected a UsageError, got ${error}`);
    return error;
  }
  assert.fail("expected a UsageError, nothing was thrown");
}

import assert from "node:assert/strict";
import { formatMs, GuardError } from "../../lib/_util/guard_error.ts";

Deno.test("one error class for guarded work; a match's error keeps its name", () => {
  for (const code of ["check-timeout", "check-failed"] as const) {
    assert.equal(new GuardError(code, "m").name, "GuardError");
  }
  for (const code of ["regex-timeout", "regex-failed"] as const) {
    const error = new GuardError(code, "m");
    assert.equal(error.name, "MatchTimeoutError");
    assert.equal(error.code, code);
    assert.equal(error.message, "m");
  }
  assert.equal(formatMs(1000), "1 s");
  assert.equal(formatMs(1500), "1500 ms");
});

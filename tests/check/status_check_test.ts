import assert from "node:assert/strict";
import { checkStatus } from "../../lib/check/status_check.ts";

Deno.test("a bare status is one expected code; a list is any of them", () => {
  const one = { operator: "equals" as const, expected: [200], line: 3, column: 7 };
  assert.deepEqual(checkStatus(one, 200, "assert"), {
    phase: "assert",
    path: "status",
    operator: "equals",
    expected: 200,
    actual: 200,
    found: true,
    passed: true,
    message: "status 200",
    line: 3,
    column: 7,
  });
  assert.equal(checkStatus(one, 404, "until").message, "status: expected 200, got 404");
  const any = { operator: "anyOf" as const, expected: [200, 201], line: 1, column: 1 };
  const failed = checkStatus(any, 500, "assert");
  assert.deepEqual(failed.expected, [200, 201]);
  assert.equal(failed.message, "status: expected one of [200,201], got 500");
  assert.equal(checkStatus(any, 201, "assert").passed, true);
});

import assert from "node:assert/strict";
import { checkStatus } from "../../lib/check/status_check.ts";
import { compileValue } from "../../lib/expr/template.ts";

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

Deno.test("bounds: every bound holds; the failure says which the status broke", () => {
  const below = {
    operator: "bounds" as const,
    expected: [],
    bounds: [{ op: "lt" as const, value: 400 }],
    line: 2,
    column: 5,
  };
  const passed = checkStatus(below, 302, "assert");
  assert.equal(passed.passed, true);
  assert.equal(passed.message, "status 302");
  const failed = checkStatus(below, 500, "assert");
  assert.deepEqual(
    { ...failed, message: failed.message },
    {
      phase: "assert",
      path: "status",
      operator: "bounds",
      expected: { lt: 400 },
      actual: 500,
      found: true,
      passed: false,
      message: "status 500, expected < 400",
      line: 2,
      column: 5,
    },
  );
  const ok = {
    operator: "bounds" as const,
    expected: [],
    bounds: [{ op: "gte" as const, value: 200 }, { op: "lte" as const, value: 299 }],
    line: 1,
    column: 1,
  };
  assert.equal(checkStatus(ok, 299, "until").passed, true);
  assert.equal(checkStatus(ok, 199, "until").message, "status 199, expected >= 200 and <= 299");
  assert.equal(checkStatus(ok, 300, "until").passed, false);
});

Deno.test("a bound from an expression is read when the check runs, and must be a code", () => {
  const from = compileValue("${vars.max}");
  const bound = { op: "gt" as const, value: 0, from };
  const check = { operator: "bounds" as const, expected: [], bounds: [bound], line: 1, column: 1 };
  const scope = (max: string) => ({
    env: () => undefined,
    vars: new Map([["max", max]]),
    steps: new Map(),
    runId: "r",
  });
  const got = checkStatus(check, 500, "assert", scope("499"));
  assert.equal(got.passed, true);
  assert.deepEqual(got.expected, { gt: 499 });
  assert.throws(
    () => checkStatus(check, 500, "assert", scope("lots")),
    /"\$\{vars.max\}" of "status" is "lots", not a status code from 100 to 599/,
  );
});

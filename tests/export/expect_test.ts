/** A step's checks as Artillery expectations (lib/export/expect.ts): status bounds. */
import assert from "node:assert/strict";
import { expectationsOf } from "../../lib/export/expect.ts";
import { newScope } from "../../lib/export/scope.ts";

const place = () => ({
  scope: newScope(),
  flow: "f",
  flowIndex: 0,
  vars: new Set<string>(),
  step: "s",
});

Deno.test("status bounds are the processor's checks on the status, one per bound", () => {
  const bounds = [{ op: "gte" as const, value: 200 }, { op: "lt" as const, value: 300 }];
  const status = { operator: "bounds" as const, expected: [], bounds, line: 1, column: 1 };
  const out = expectationsOf({ status, paths: [] }, place());
  assert.deepEqual(out.expect, [], "the expect plugin's statusCode takes only codes");
  assert.deepEqual(out.checks, [
    { path: "$.status", at: ["status"], op: "gte", expected: 200 },
    { path: "$.status", at: ["status"], op: "lt", expected: 300 },
  ]);
});

Deno.test("codes stay the expect plugin's statusCode", () => {
  const status = { operator: "anyOf" as const, expected: [200, 201], line: 1, column: 1 };
  assert.deepEqual(expectationsOf({ status, paths: [] }, place()).expect, [{
    statusCode: [200, 201],
  }]);
});

import assert from "node:assert/strict";
import { checkReportShape, Mismatch } from "../../lib/run/report_shape.ts";

const none = { total: 0, passed: 0, failed: 0, error: 0, skipped: 0 };
const report = (step: Record<string, unknown>) => ({
  schema_version: 1,
  run_id: "r",
  runner_version: "0.1.0",
  started_at: "2026-01-01T00:00:00.000Z",
  duration_ms: 1,
  status: "passed",
  totals: { flows: none, steps: none, assertions: { total: 0, passed: 0, failed: 0 } },
  flows: [{
    file: "f.yaml",
    name: "f",
    status: "passed",
    started_at: "x",
    duration_ms: 1,
    steps: [step],
  }],
});
const step = {
  name: "s",
  status: "passed",
  duration_ms: 1,
  attempts: 1,
  line: 1,
  column: 1,
  request: null,
  response: null,
  assertions: [],
  captures: [],
};

function mismatch(value: unknown): string {
  try {
    checkReportShape(value);
  } catch (error) {
    if (error instanceof Mismatch) return error.message;
    throw error;
  }
  return "";
}

Deno.test("a well-formed report passes", () => {
  assert.equal(mismatch(report(step)), "");
});

Deno.test("the first wrong field of a step is named by its path, in the order fields are written", () => {
  assert.match(
    mismatch(report({ ...step, attempt_statuses: ["x"] })),
    /^flows\[0\]\.steps\[0\]\.attempt_statuses\[0\] must be a status code or null/,
  );
  assert.match(
    mismatch(report({ ...step, request: { method: 1 } })),
    /^flows\[0\]\.steps\[0\]\.request\.method must be/,
  );
  assert.match(
    mismatch(report({ ...step, line: "1", assertions: [{}] })),
    /^flows\[0\]\.steps\[0\]\.line/,
  );
  assert.match(
    mismatch(report({ ...step, assertions: [{ phase: "later" }] })),
    /assertions\[0\]\.phase must be one of/,
  );
});

Deno.test("nesting past 1000 levels is refused without recursion", () => {
  let deep: unknown = 0;
  for (let i = 0; i < 1100; i++) deep = [deep];
  assert.match(mismatch(deep), /nests deeper than 1000 levels$/);
});

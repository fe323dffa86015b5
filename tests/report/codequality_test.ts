import assert from "node:assert/strict";
import { codeQualityReporter, toCodeQuality } from "../../lib/report/codequality.ts";
import type { RunResult } from "../../lib/model/result.ts";

const failing = {
  flows: [{
    file: "flows/a.yaml",
    name: "A",
    status: "failed",
    steps: [{
      name: "get",
      status: "failed",
      line: 3,
      column: 5,
      message: "status: expected 200, got 500.",
      assertions: [{ passed: false, message: "status: expected 200, got 500", line: 6, column: 7 }],
    }],
  }],
} as unknown as RunResult;

Deno.test("a failed step is a major finding on its check's line, with a stable fingerprint", () => {
  const [issue] = toCodeQuality(failing);
  assert.equal(issue.severity, "major");
  assert.deepEqual(issue.location, { path: "flows/a.yaml", lines: { begin: 6 } });
  assert.match(issue.fingerprint, /^[0-9a-f]{16}$/);
  assert.equal(toCodeQuality(failing)[0].fingerprint, issue.fingerprint);
});

Deno.test("flow-file problems are critical findings, and then the flows are not repeated", () => {
  const result = {
    ...failing,
    problems: [
      {
        code: "unknown-key",
        message: "Unknown key.",
        hint: "Did you mean x?",
        file: "b.yaml",
        line: 2,
        column: 1,
      },
      { code: "no-file", message: "No such file.", file: "c.yaml", line: 0, column: 0 },
    ],
  } as unknown as RunResult;
  const issues = toCodeQuality(result);
  assert.equal(issues.length, 1);
  assert.equal(issues[0].severity, "critical");
  assert.equal(issues[0].check_name, "flowrun/unknown-key");
  assert.equal(issues[0].description, "Unknown key. Did you mean x?");
});

Deno.test("the reporter writes the findings as JSON when the run ends", async () => {
  let written = "";
  const reporter = codeQualityReporter((text) => {
    written = text;
    return Promise.resolve();
  });
  await reporter.onRunEnd?.(failing);
  assert.equal(JSON.parse(written).length, 1);
});

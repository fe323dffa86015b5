import assert from "node:assert/strict";
import type { FlowResult, StepResult } from "../../lib/model/result.ts";
import { stepDetails } from "../../lib/report/console_step.ts";
import { style } from "../../lib/report/style.ts";

const flow = { file: "a.yaml", name: "A" } as FlowResult;
const s = style(false);

const step = (over: Partial<StepResult>): StepResult => ({
  name: "get",
  status: "failed",
  duration_ms: 1,
  attempts: 1,
  line: 3,
  column: 5,
  captures: [],
  assertions: [],
  ...over,
} as StepResult);

Deno.test("a passing or skipped step has no details unless verbose", () => {
  assert.deepEqual(stepDetails(flow, step({ status: "passed" }), {}, s), []);
  assert.deepEqual(stepDetails(flow, step({ status: "skipped" }), { verbose: 2 }, s), []);
});

Deno.test("a failed step: request, failed check at its line, body and curl, in that order", () => {
  const lines = stepDetails(
    flow,
    step({
      failure_kind: "assertion",
      request: { method: "GET", url: "http://x.test/", curl: "curl http://x.test/" },
      response: { status: 500, body: "oops", content_type: "text/plain" },
      assertions: [{
        phase: "assert",
        path: "status",
        operator: "equals",
        expected: 200,
        actual: 500,
        found: true,
        passed: false,
        message: "status: expected 200, got 500",
        line: 6,
        column: 9,
      }],
    } as Partial<StepResult>),
    { sourceLine: () => "        status: 200" },
    s,
  );
  assert.deepEqual(lines, [
    "GET http://x.test/ → 500",
    "✘ status: expected 200, got 500",
    "  at a.yaml:6:9",
    "  6 |         status: 200",
    "    |         ^",
    "response body (text/plain):",
    "  oops",
    "curl: curl http://x.test/",
  ]);
});

Deno.test("an error without a failed check says why and where the step is; -v adds headers and captures", () => {
  const errored = step({
    status: "error",
    failure_kind: "request",
    message: "connection refused",
    file: "inc.yaml",
    captures: ["token"],
    request: { method: "POST", url: "http://x.test/", headers: { accept: "*/*" }, body: "{}" },
  } as Partial<StepResult>);
  assert.deepEqual(stepDetails(flow, errored, { curl: false }, s), [
    "POST http://x.test/",
    "connection refused",
    "at inc.yaml:3:5",
  ]);
  assert.deepEqual(stepDetails(flow, errored, { verbose: true, curl: false }, s), [
    "POST http://x.test/",
    "> accept: */*",
    "request body:",
    "  {}",
    "connection refused",
    "at inc.yaml:3:5",
    "captured: token",
  ]);
});

Deno.test("a trace is a link when --trace-link is given", () => {
  const traced = step({ status: "error", message: "x", trace: { trace_id: "t1", span_id: "s1" } });
  const lines = stepDetails(flow, traced, { traceLink: "http://j/{trace_id}/{span_id}" }, s);
  assert.equal(lines[0], "trace: http://j/t1/s1");
});

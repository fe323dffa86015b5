import assert from "node:assert/strict";
import { emptyResult, failedBefore, stepResult, withDetails } from "../../lib/run/step_result.ts";
import { ReceivedResponse } from "../../lib/http/response.ts";
import { Redactor } from "../../lib/secrets/mod.ts";
import type { Attempt } from "../../lib/run/attempt.ts";
import type { AssertionResult, StepResult } from "../../lib/model/result.ts";
import type { Step } from "../../lib/model/flow.ts";

const step = { name: "s", line: 2, column: 3 } as Step;
const timing = { start_ms: 1, duration_ms: 2 };
const request = {
  method: "POST",
  url: "http://a.test/x",
  headers: [["a", "1"]] as [string, string][],
  body: "hi",
};

Deno.test("before anything happened a step is an empty pass; a failure before sending keeps its kind", () => {
  assert.equal(emptyResult(step).status, "passed");
  const r = failedBefore(step, timing, "error", "expression", "Unknown var.", 2, request);
  assert.deepEqual([r.status, r.failure_kind, r.attempts, r.request], ["error", "expression", 2, {
    method: "POST",
    url: "http://a.test/x",
  }]);
});

Deno.test("an unmet until and a failed assertion say which and how many more", () => {
  const response = new ReceivedResponse(200, {}, "{}");
  const unmet = { phase: "until", passed: false, message: "state is pending" } as AssertionResult;
  const last = { request, response, until: [unmet, unmet] } as Attempt;
  const r = stepResult(step, timing, { last, satisfied: false, attempts: 5 }, {
    assertions: [unmet, unmet],
    captured: [],
    problems: [],
  });
  assert.equal(r.failure_kind, "until");
  assert.equal(r.message, "Still unmet after 5 attempts: state is pending (and 1 more).");
  const failed = { phase: "assert", passed: false, message: "status is 500" } as AssertionResult;
  const r2 = stepResult(step, timing, {
    last: { ...last, until: [] },
    satisfied: true,
    attempts: 1,
  }, { assertions: [failed], captured: [], problems: [] });
  assert.equal(r2.message, "status is 500.");
});

Deno.test("a step that did not pass keeps its exchange, bodies masked and cut, and a curl command", () => {
  const redactor = new Redactor();
  redactor.add("s3cr3t-t0ken");
  const response = new ReceivedResponse(
    500,
    { "content-type": "text/plain" },
    `token s3cr3t-t0ken ${"x".repeat(500)}`,
  );
  const r: StepResult = {
    ...failedBefore(step, timing, "failed", "assertion", "status is 500", 1, request),
    response: { status: 500 },
  };
  withDetails(r, { request, response, until: [] } as Attempt, 100, redactor);
  assert.match(r.request!.curl!, /^curl -X POST/);
  assert.doesNotMatch(r.response!.body!, /s3cr3t-t0ken/);
  assert.ok(r.response!.body!.length <= 100);
  assert.ok(r.response!.body_truncated! > 0);
});

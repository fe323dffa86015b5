import assert from "node:assert/strict";
import { stepFailures } from "../../lib/report/failures.ts";
import type { AssertionResult, FlowResult, StepResult } from "../../lib/model/result.ts";

function check(
  message: string,
  line: number,
  passed: boolean,
  skipped?: boolean,
): AssertionResult {
  return {
    phase: "assert",
    path: "status",
    operator: "equals",
    expected: 200,
    actual: 500,
    found: true,
    passed,
    ...(skipped ? { skipped } : {}),
    message,
    line,
    column: 9,
  };
}

function step(
  name: string,
  status: StepResult["status"],
  fields: Partial<Pick<StepResult, "message" | "line" | "column" | "file" | "assertions">> = {},
): StepResult {
  return {
    name,
    status,
    duration_ms: 1,
    attempts: 1,
    line: 3,
    column: 5,
    request: { method: "GET", url: "http://api.test/" },
    response: { status: 500 },
    assertions: [],
    captures: [],
    ...fields,
  };
}

function flow(file: string, steps: StepResult[]): FlowResult {
  const failed = steps.find((s) => s.status === "failed" || s.status === "error");
  return {
    file,
    name: file.replace(/\.yaml$/, ""),
    status: failed?.status ?? "passed",
    started_at: "",
    duration_ms: 1,
    steps,
  };
}

Deno.test("stepFailures lists failed and errored steps only, in flow and step order", () => {
  const flows = [
    flow("a.yaml", [step("ok", "passed"), step("broken", "failed"), step("after", "skipped")]),
    flow("b.yaml", [step("fine", "passed")]),
    flow("c.yaml", [step("down", "error"), step("next", "failed")]),
  ];
  const found = stepFailures(flows).map((f) => `${f.flow.file} ${f.step.name}`);
  assert.deepEqual(found, ["a.yaml broken", "c.yaml down", "c.yaml next"]);
  assert.deepEqual(stepFailures([]), []);
});

Deno.test("stepFailures points at the first failed check, passing and skipped ones aside", () => {
  const s = step("get", "failed", {
    message: "Failed.",
    assertions: [
      check("status 200", 6, true),
      check("a group not evaluated", 7, false, true),
      check("$.json.id: expected 1, got 2", 8, false),
      check("$.json.name: expected a, got b", 10, false),
    ],
  });
  const [f] = stepFailures([flow("a.yaml", [s])]);
  assert.equal(`${f.file}:${f.line}:${f.column}`, "a.yaml:8:9");
  assert.equal(f.reason, "$.json.id: expected 1, got 2");
  assert.deepEqual(f.checks.map((a) => a.line), [8, 10]);
  assert.equal(f.step, s);
});

Deno.test("stepFailures falls back to the step: its position, message, then status", () => {
  const [withMessage, bare, included] = stepFailures([
    flow("a.yaml", [
      step("send", "error", { message: "Request failed: connection refused.", line: 12 }),
      step("poll", "failed", { line: 20, column: 7, assertions: [check("ok", 22, true)] }),
    ]),
    flow("b.yaml", [step("login", "failed", { file: "shared/login.yaml", line: 4 })]),
  ]);
  assert.equal(`${withMessage.file}:${withMessage.line}:${withMessage.column}`, "a.yaml:12:5");
  // The step's message is kept as it is, closing period included.
  assert.equal(withMessage.reason, "Request failed: connection refused.");
  assert.deepEqual(withMessage.checks, []);
  assert.equal(`${bare.file}:${bare.line}:${bare.column}`, "a.yaml:20:7");
  assert.equal(bare.reason, "failed");
  // A step of an included flow is positioned in the file it is written in.
  assert.equal(`${included.file}:${included.line}`, "shared/login.yaml:4");
  assert.equal(included.flow.file, "b.yaml");
});

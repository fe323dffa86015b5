/**
 * What a run keeps of a finished flow (`compactFlow`): totals stay exact,
 * failures keep what the recap, annotations and code quality report read,
 * and flows with nothing to say share their step lists, so a long passing
 * run keeps almost nothing per flow.
 */
import assert from "node:assert/strict";
import { byteSpill } from "../../lib/io/byte_spill.ts";
import { compactFlow, spillSteps } from "../../lib/model/compact.ts";
import { type FlowResult, type StepResult, totalsOf } from "../../lib/model/result.ts";
import { stepFailures } from "../../lib/report/failures.ts";

const check = (passed: boolean, line: number) => ({
  phase: "assert" as const,
  path: "$.json.a",
  operator: "equals",
  expected: 1,
  actual: passed ? 1 : "x".repeat(10_000),
  found: true,
  passed,
  message: passed ? "" : "expected 1",
  line,
  column: 7,
});

function step(name: string, status: StepResult["status"], checks: boolean[]): StepResult {
  return {
    name,
    status,
    duration_ms: 12.5,
    attempts: 1,
    line: 3,
    column: 5,
    request: { method: "GET", url: `http://x.test/${name}`, headers: { authorization: "t" } },
    response: { status: 200, body: "b".repeat(1000) },
    assertions: checks.map((ok, i) => check(ok, 10 + i)),
    captures: ["id"],
    ...(status === "skipped" ? { message: "Skipped.", failure_kind: "skipped" as const } : {}),
    ...(status === "failed"
      ? { message: "A check failed.", failure_kind: "assertion" as const }
      : {}),
  };
}

function flow(name: string, steps: StepResult[]): FlowResult {
  const status = steps.some((s) => s.status === "failed") ? "failed" : "passed";
  return {
    file: `${name}.yaml`,
    name,
    status,
    started_at: "2026-01-01T00:00:00.000Z",
    duration_ms: 30,
    steps,
  };
}

/** A flow that passed a step, failed the next on one of its two checks and skipped the last. */
const failing = () =>
  flow("bad", [
    step("login", "passed", [true]),
    step("create", "failed", [true, false]),
    step("read", "skipped", []),
  ]);

Deno.test("passing flows of one shape share one kept step list, and totals do not change", () => {
  const flows = Array.from({ length: 50 }, (_, i) =>
    flow(`f${i}`, [
      step("login", "passed", [true]),
      step("create", "passed", [true, true]),
      step("cleanup", "skipped", []),
    ]));
  const other = flow("other", [step("login", "passed", [true, true, true])]);
  const before = JSON.stringify(totalsOf([...flows, other]));
  for (const f of [...flows, other]) compactFlow(f);
  assert.equal(JSON.stringify(totalsOf([...flows, other])), before);
  assert.equal(new Set(flows.map((f) => f.steps)).size, 1, "one list for one shape");
  assert.notEqual(other.steps, flows[0].steps);
  assert.ok(Object.isFrozen(flows[0].steps) && Object.isFrozen(flows[0].steps[0]));
  // The flow keeps its own fields; its steps keep no name, request, body or capture.
  assert.equal(flows[7].name, "f7");
  assert.deepEqual(flows[7].steps.map((s) => [s.status, s.assertions.length, s.name]), [
    ["passed", 1, ""],
    ["passed", 2, ""],
    ["skipped", 0, ""],
  ]);
  assert.ok(flows[7].steps.every((s) => s.request === null && s.response === null));
});

Deno.test("a failed step keeps what the failure lists read; its passing neighbours are shared", () => {
  const whole = failing();
  const kept = failing();
  const before = JSON.stringify(totalsOf([kept]));
  compactFlow(kept);
  assert.equal(JSON.stringify(totalsOf([kept])), before);
  const [a] = stepFailures([whole]);
  const [b] = stepFailures([kept]);
  assert.deepEqual(
    [b.file, b.line, b.column, b.reason, b.step.name, b.step.failure_kind, b.step.message],
    [a.file, a.line, a.column, a.reason, a.step.name, a.step.failure_kind, a.step.message],
  );
  assert.deepEqual(b.step.request, { method: "GET", url: "http://x.test/create" });
  // The failing check's value is cut: it was printed and reported when the flow ended.
  assert.equal(String(b.checks[0].actual).length, 201);
  // The passing and skipped steps around it are the shared placeholders of passing flows.
  const shared = flow("ok", [step("x", "passed", [true]), step("y", "skipped", [])]);
  compactFlow(shared);
  assert.equal(kept.steps[0], shared.steps[0]);
  assert.equal(kept.steps[2], shared.steps[1]);
  assert.ok(!Object.isFrozen(kept.steps), "a list with a failure is the flow's own");
});

Deno.test("a failing flow's kept steps wait in the spill and read back as they were kept", () => {
  const inMemory = failing();
  compactFlow(inMemory);
  const spill = byteSpill();
  try {
    const spilled = failing();
    compactFlow(spilled);
    spillSteps(spilled, spill);
    // A data property (a getter would turn the result into a dictionary), read back when read.
    const own = Object.getOwnPropertyDescriptor(spilled, "steps");
    assert.ok(own && "value" in own && !own.get, "steps is a data property");
    assert.ok(Array.isArray(spilled.steps) && spilled.steps.length === inMemory.steps.length);
    assert.notEqual(spilled.steps[1], inMemory.steps[1], "parsed from the spill");
    assert.deepEqual(JSON.parse(JSON.stringify(spilled)), JSON.parse(JSON.stringify(inMemory)));
    assert.deepEqual(totalsOf([spilled]), totalsOf([inMemory]));
    assert.deepEqual(
      stepFailures([spilled]).map((f) => [f.file, f.line, f.reason]),
      stepFailures([inMemory]).map((f) => [f.file, f.line, f.reason]),
    );
    // A passing flow's shared list stays as it is.
    const ok = flow("ok", [step("x", "passed", [true])]);
    compactFlow(ok);
    const list = ok.steps;
    spillSteps(ok, spill);
    assert.equal(ok.steps, list);
  } finally {
    spill.close();
  }
});

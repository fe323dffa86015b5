import assert from "node:assert/strict";
import {
  consoleReporter,
  formatFlow,
  formatFlowLine,
  formatRecap,
  formatSummary,
  style,
} from "../../lib/report/console.ts";
import type { FlowResult, RunResult, StepResult } from "../../lib/model/result.ts";

const s = style(false);

function step(
  name: string,
  status: StepResult["status"],
  over: Partial<StepResult> = {},
): StepResult {
  return {
    name,
    status,
    duration_ms: 2.4,
    attempts: 1,
    line: 3,
    column: 5,
    captures: [],
    assertions: [],
    ...over,
  } as StepResult;
}

function flow(file: string, status: FlowResult["status"], steps: StepResult[]): FlowResult {
  return { file, name: file.replace(".yaml", ""), status, started_at: "", duration_ms: 7, steps };
}

const counts = (passed: number, failed: number) => ({
  total: passed + failed,
  passed,
  failed,
  error: 0,
  skipped: 0,
});

Deno.test("a flow block: a line per step, names aligned, skipped steps say why", () => {
  const text = formatFlow(
    flow("a.yaml", "passed", [
      step("ping", "passed"),
      step("longer name", "passed", { attempts: 3 }),
      step("later", "skipped", { message: "Skipped: its if does not hold." }),
    ]),
    s,
  );
  assert.equal(
    text,
    [
      "✔ a.yaml · a 7 ms",
      "    ✔ ping         2 ms",
      "    ✔ longer name  2 ms · 3 attempts",
      "    ○ later        skipped: its if does not hold",
      "",
    ].join("\n"),
  );
});

Deno.test("a flow that never started is one line; a compact line counts its steps", () => {
  const never = flow("b.yaml", "skipped", [
    step("s", "skipped", { attempts: 0, message: "Not run: --fail-fast stopped the run." }),
  ]);
  assert.equal(formatFlow(never, s), "○ b.yaml · b skipped: --fail-fast stopped the run\n");
  assert.equal(formatFlowLine(never, s), formatFlow(never, s));
  assert.equal(
    formatFlowLine(flow("c.yaml", "passed", [step("x", "passed")]), s),
    "✔ c.yaml · c 7 ms · 1 step\n",
  );
});

Deno.test("the recap lists each failure where it is written; the summary counts", () => {
  const failed = flow("d.yaml", "failed", [
    step("get", "failed", {
      assertions: [{ passed: false, message: "status: expected 200, got 500", line: 6, column: 7 }],
    } as Partial<StepResult>),
  ]);
  assert.equal(
    formatRecap([failed, flow("e.yaml", "passed", [])], s),
    "Failures:\n  ✘ d.yaml:6:7  d › get: status: expected 200, got 500\n\n",
  );
  assert.equal(formatRecap([], s), "");
  const result = {
    duration_ms: 999,
    totals: { flows: { ...counts(1, 1), error: 1, total: 3 }, steps: counts(2, 0) },
  } as unknown as RunResult;
  assert.equal(
    formatSummary(result, s),
    "3 flows: 1 passed, 1 failed, 1 error · 2 steps: 2 passed · 999 ms\n",
  );
});

Deno.test("failures mode prints failing flows only, with the command that reruns them", async () => {
  let out = "";
  const reporter = consoleReporter({
    write: (t) => void (out += t),
    color: false,
    mode: "failures",
    reproduce: (file) => `flowrun run ${file}`,
  });
  await reporter.onFlowEnd?.(flow("ok.yaml", "passed", [step("s", "passed")]));
  assert.equal(out, "");
  await reporter.onFlowEnd?.(
    flow("bad.yaml", "error", [step("s", "error", { message: "refused" })]),
  );
  assert.match(out, /^✘ bad\.yaml · bad 7 ms\n/);
  assert.ok(out.endsWith("\n    reproduce: flowrun run bad.yaml\n\n"), out);
});

/**
 * The log masks its own lines when given the run's redactor (raw events):
 * a flow's lines when the flow ends, with every secret known then; a line
 * holding a secret is masked value by value, so it stays JSON.
 */
import assert from "node:assert/strict";
import { logReporter } from "../../lib/report/log.ts";
import { Redactor } from "../../lib/secrets/mod.ts";
import type { FlowRef } from "../../lib/model/events.ts";
import type { StepResult } from "../../lib/model/result.ts";
import { failedCheck, failedStep, flowOf } from "../support/results.ts";

const REF: FlowRef = { file: "a.yaml", name: "a" };
const TOKEN = "t0ken-6f5e4d3c2b1a";

function step(actual: unknown): StepResult {
  return failedStep({
    message: `got ${typeof actual === "string" ? actual : "a number"}`,
    assertions: [failedCheck(actual)],
  });
}

async function logOf(redactor: Redactor, between: () => void): Promise<string[]> {
  const written: string[] = [];
  const log = logReporter({
    sink: (text) => void written.push(text),
    now: () => new Date(0),
    redactor,
  });
  await log.onRunStart?.({ run_id: "r", runner_version: "0", started_at: "", files: ["a.yaml"] });
  await log.onFlowStart?.(REF);
  await log.onRequest?.(REF, {
    step: "get",
    attempt: 1,
    method: "GET",
    url: `http://x.test/?t=${TOKEN}`,
  });
  await log.onStepEnd?.(REF, step(TOKEN));
  await log.onStepEnd?.(REF, step(98765432));
  between();
  await log.onFlowEnd?.(flowOf("a", "failed", [step(TOKEN)]));
  return written.join("").trim().split("\n");
}

Deno.test("a secret met before a flow ends is masked in all its lines, each still JSON", async () => {
  const redactor = new Redactor();
  // Learnt after the lines were made, before the flow ended: its lines were held, so masked.
  const lines = await logOf(redactor, () => {
    redactor.add(TOKEN);
    redactor.add("98765432");
  });
  const text = lines.join("\n");
  assert.ok(!text.includes(TOKEN));
  assert.ok(!text.includes("98765432"));
  const parsed = lines.map((l) => JSON.parse(l));
  const request = parsed.find((l) => l.event === "request");
  assert.equal(request.url, "http://x.test/?t=***");
  const numbers = parsed.filter((l) => l.event === "assertion").map((l) => l.actual);
  assert.deepEqual(numbers, ["***", "***"], 'a secret number is the string "***"');
});

Deno.test("a flow without a secret is written as its events hold it", async () => {
  const redactor = new Redactor();
  redactor.add("nothing-here-1234");
  const lines = await logOf(redactor, () => {});
  assert.ok(lines.join("\n").includes(TOKEN));
  assert.ok(lines.some((l) => l.includes('"actual":98765432')));
});

Deno.test("a flow's step lines are made from the shared masked copy, also when its events came as copies", async () => {
  const redactor = new Redactor();
  redactor.add(TOKEN);
  for (const cloned of [false, true]) {
    const written: string[] = [];
    const steps = [step(TOKEN), step("plain")];
    const flow = flowOf("a", "failed", steps);
    // The shared copy, told apart by its step names.
    const copy = {
      ...flow,
      steps: steps.map((s, i) => ({ ...redactor.redactValue(s), name: `copy ${i}` })),
    };
    const log = logReporter({
      sink: (text) => void written.push(text),
      now: () => new Date(0),
      redactor,
      masked: (f) => f === flow ? copy : redactor.redactValue(f),
    });
    await log.onFlowStart?.(REF);
    // From a worker thread, a step reaches the log as a copy of its own, not as the flow's object.
    for (const s of steps) await log.onStepEnd?.(REF, cloned ? structuredClone(s) : s);
    await log.onFlowEnd?.(flow);
    const lines = written.join("").trim().split("\n").map((l) => JSON.parse(l));
    const ends = lines.filter((l) => l.event === "step_end").map((l) => l.step);
    assert.deepEqual(ends, ["copy 0", "copy 1"], `cloned: ${cloned}`);
    assert.ok(!written.join("").includes(TOKEN));
  }
});

import assert from "node:assert/strict";
import { record, type Walk } from "../../lib/run/walk.ts";
import { Redactor } from "../../lib/secrets/mod.ts";
import type { Context } from "../../lib/run/context.ts";
import type { StepResult } from "../../lib/model/result.ts";

const result = (name: string, message: string) =>
  ({ name, status: "failed", message }) as unknown as StepResult;

Deno.test("without a step listener a result waits unmasked, to be masked once when the flow ends", async () => {
  const walk: Walk = { ref: { file: "f.yaml", name: "f" }, started: 0, results: [], maskedAt: [] };
  const redactor = new Redactor();
  redactor.add("s3cr3t-value");
  await record(
    result("s", "got s3cr3t-value"),
    { prefix: "" },
    walk,
    { reporter: {}, redactor } as unknown as Context,
  );
  assert.equal(walk.results[0].message, "got s3cr3t-value");
  assert.deepEqual(walk.maskedAt, [-1]);
});

Deno.test("with a step listener a result is named for its level, masked and reported at once", async () => {
  const walk: Walk = { ref: { file: "f.yaml", name: "f" }, started: 0, results: [], maskedAt: [] };
  const redactor = new Redactor();
  redactor.add("s3cr3t-value");
  const heard: StepResult[] = [];
  const ctx = {
    reporter: { onStepEnd: (_: unknown, r: StepResult) => void heard.push(r) },
    redactor,
  };
  await record(
    result("get", "got s3cr3t-value"),
    { prefix: "login › ", file: "login.yaml" },
    walk,
    ctx as unknown as Context,
  );
  assert.equal(heard[0].name, "login › get");
  assert.equal(heard[0].file, "login.yaml");
  assert.doesNotMatch(heard[0].message!, /s3cr3t-value/);
  assert.deepEqual(walk.maskedAt, [redactor.size]);
});

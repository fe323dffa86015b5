import assert from "node:assert/strict";
import { leaves, notRun, skipped } from "../../lib/run/skipped.ts";
import { loadFlow } from "../../lib/load/load_flow.ts";
import type { Step } from "../../lib/model/flow.ts";

Deno.test("a skipped step keeps its place and says why", () => {
  const r = skipped({ name: "s", line: 4, column: 5 } as Step, "Skipped because x.", 12.5);
  assert.equal(r.status, "skipped");
  assert.equal(r.message, "Skipped because x.");
  assert.equal(r.start_ms, 12.5);
  assert.equal(r.line, 4);
});

Deno.test("an include reports as its flow's steps, nested includes expanded and prefixed", () => {
  const c = { name: "c", line: 1, column: 1 } as Step;
  const inner = { name: "b", include: { file: "b.yaml", flow: { steps: [c] } } } as unknown as Step;
  const outer = {
    name: "a",
    include: { file: "a.yaml", flow: { steps: [inner] } },
  } as unknown as Step;
  const found = leaves(outer, { prefix: "x › " });
  assert.deepEqual(found.map((l) => [l.prefix, l.file, l.step.name]), [[
    "x › a › b › ",
    "b.yaml",
    "c",
  ]]);
});

Deno.test("a flow never started has every step skipped with the reason and kind", () => {
  const { flow } = loadFlow(
    'name: f\nsteps:\n  - name: one\n    request: {url: "http://a.test/"}\n  - name: two\n    request: {url: "http://a.test/"}\n',
    "f.yaml",
  );
  const r = notRun(flow!, "Not run: the run was interrupted (SIGINT).", "interrupted");
  assert.equal(r.status, "skipped");
  assert.deepEqual(r.steps.map((s) => [s.name, s.failure_kind]), [["one", "interrupted"], [
    "two",
    "interrupted",
  ]]);
});

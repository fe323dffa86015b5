import assert from "node:assert/strict";
import { invalidRunResult } from "../../lib/run/invalid_run.ts";
import type { Problem } from "../../lib/model/errors.ts";

Deno.test("a run whose flows did not load: one error step per problem, the other files not run", () => {
  const problem = {
    file: "flows/bad.yaml",
    line: 3,
    column: 7,
    code: "unknown-key",
    message: "Unknown key.",
  } as Problem;
  const result = invalidRunResult({
    run_id: "r",
    started_at: "2026-01-01T00:00:00.000Z",
    problems: [problem],
    files: ["flows/bad.yaml", "flows/good.yaml"],
  });
  assert.equal(result.status, "failed");
  assert.deepEqual(result.flows.map((f) => [f.name, f.status]), [["bad.yaml", "error"], [
    "good.yaml",
    "skipped",
  ]]);
  assert.equal(result.flows[0].steps[0].name, "unknown-key at line 3, column 7");
  assert.equal(result.flows[1].steps[0].message, "Not run: 1 flow file has problems.");
});

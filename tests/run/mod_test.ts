import assert from "node:assert/strict";
import * as run from "../../lib/run/mod.ts";

Deno.test("the run stage's face runs flows and exports what the CLI and the API use of it", async () => {
  for (
    const name of [
      "runFlows",
      "runFlow",
      "runStep",
      "newRunId",
      "DEFAULT_TIMEOUT_MS",
      "makeContext",
      "queueReporter",
      "mergeResults",
      "parseJsonReport",
      "invalidRunResult",
    ]
  ) {
    assert.ok(name in run, name);
  }
  const ends: string[] = [];
  const result = await run.runFlows([], {
    runId: "r",
    reporter: { onRunEnd: (r) => void ends.push(r.run_id) },
  });
  assert.equal(result.totals.flows.total, 0);
  assert.deepEqual(ends, ["r"]);
});

/**
 * The load stage's face: it gives the stage's whole API, and a set loads
 * through it as through suite.ts. What a run loads does not go through it
 * (cli/run_graph.ts names no mod.ts of load/), so parts imported on demand
 * stay so.
 */
import assert from "node:assert/strict";
import * as load from "../../lib/load/mod.ts";

Deno.test("mod.ts gives the stage's API", () => {
  for (
    const name of [
      "loadFlows",
      "loadFlowsDeferred",
      "loadFlow",
      "selectSteps",
      "prepareSchemas",
      "parseEnvFile",
      "parseVarsFile",
    ] as const
  ) {
    assert.equal(typeof load[name], "function", name);
  }
  assert.equal(load.MAX_PROBLEMS_TOTAL, 1000);
  assert.equal(load.MAX_SCHEMA_DEPTH, 1000);
  assert.equal(load.SCHEMA_COMPILE_LIMIT_MS, 2000);
  assert.equal(typeof load.MAX_PROBLEMS_PER_FILE, "number");
});

Deno.test("a set loads through the face", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-load-mod-" });
  try {
    await Deno.writeTextFile(
      `${dir}/a.yaml`,
      "name: a\nsteps:\n  - name: s\n    request: {url: http://x.test}\n",
    );
    const { flows, problems } = await load.loadFlows([dir]);
    assert.deepEqual([flows.map((f) => f.name), problems], [["a"], []]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a run does not load the face", async () => {
  const graph = await Deno.readTextFile(new URL("../../cli/run_graph.ts", import.meta.url));
  assert.ok(graph.includes('import "../lib/load/suite.ts";'));
  assert.ok(!graph.includes('import "../lib/load/mod.ts";'));
});

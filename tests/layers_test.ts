/**
 * The import graph follows the pipeline's layers (scripts/check_layers.ts),
 * and the checker catches the wrong-way imports this project once had.
 */
import assert from "node:assert/strict";
import { importGraph, layerViolations } from "../scripts/check_layers.ts";

Deno.test("every import of lib/ points down the pipeline", async () => {
  const graph = await importGraph(["mod.ts", "cli.ts"]);
  assert.ok(graph.size > 40, `the graph has ${graph.size} modules`);
  assert.deepEqual(layerViolations(graph), []);
});

Deno.test("the checker flags imports that point up, into the CLI, or from a module with no layer", () => {
  const problems = layerViolations(
    new Map([
      ["lib/redact.ts", ["lib/report/junit.ts"]],
      ["lib/merge.ts", ["lib/report/json.ts", "lib/result.ts"]],
      ["lib/io.ts", ["lib/shard.ts"]],
      ["lib/run.ts", ["cli/output.ts"]],
      ["lib/brand_new.ts", []],
      ["cli/run.ts", ["lib/run.ts"]],
    ]),
  );
  assert.deepEqual(problems.map((p) => p.split(" ").slice(0, 4).join(" ")), [
    "lib/brand_new.ts has no layer:",
    "lib/io.ts (base) imports lib/shard.ts",
    "lib/merge.ts (run) imports lib/report/json.ts",
    "lib/redact.ts (base) imports lib/report/junit.ts",
    "lib/run.ts imports cli/output.ts: lib/",
  ]);
});

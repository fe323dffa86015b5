/**
 * The example suite (examples/suite) runs green against the demo API the way
 * `deno task demo` runs it: one login through --setup for every flow, data
 * rows, conditions, shared and named checks, cleanup steps, and a teardown
 * that checks no test data was left behind.
 */
import assert from "node:assert/strict";
import { startDemoApi } from "../examples/demo_api.ts";
import { runCli } from "./support/cli.ts";

Deno.test("examples/suite: setup, data rows, conditions, cleanup and teardown, all green", async () => {
  const api = await startDemoApi();
  const dir = await Deno.makeTempDir({ prefix: "flowrun-suite-" });
  try {
    const run = await runCli([
      "run",
      "examples/suite",
      "--setup",
      "examples/suite/shared/login.yaml",
      "--teardown",
      "examples/suite/shared/sweep.yaml",
      "--report-json",
      `${dir}/r.json`,
    ], { env: { BASE_URL: api.url } });
    assert.equal(run.code, 0, run.stdout + run.stderr);
    const report = JSON.parse(await Deno.readTextFile(`${dir}/r.json`));
    const names = report.flows.map((f: { name: string }) => f.name);
    assert.equal(names[0], "log in once");
    assert.equal(names.at(-1), "no test data left");
    assert.deepEqual(names.filter((n: string) => n.startsWith("item kinds")), [
      "item kinds [basic]",
      "item kinds [premium]",
      "item kinds [free]",
    ]);
    const skipped = report.flows.flatMap((f: { steps: { failure_kind?: string }[] }) => f.steps)
      .filter((s: { failure_kind?: string }) => s.failure_kind === "condition");
    assert.equal(skipped.length, 2, "the premium check is skipped for two rows");
  } finally {
    await api.close();
    await Deno.remove(dir, { recursive: true });
  }
});

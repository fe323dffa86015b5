/**
 * `deno task test` (scripts/test.ts) names test files by path: a renamed or deleted one would make
 * the parallel part stop before its first test, so every name is held to a test file here.
 */
import assert from "node:assert/strict";
import { ALONE, SLOW_FIRST, summaryLine, tally } from "../scripts/test.ts";

const ROOT = new URL("../", import.meta.url);

Deno.test("the files scripts/test.ts starts first or runs alone are test files, each named once", async () => {
  const names = [...SLOW_FIRST, ...ALONE];
  assert.equal(new Set(names).size, names.length, "a file is named twice");
  for (const name of names) {
    assert.match(name, /^tests\/.*_test\.ts$/, name);
    const stat = await Deno.stat(new URL(name, ROOT));
    assert.ok(stat.isFile, name);
  }
});

Deno.test("deno task test is scripts/test.ts, and .ci/run reads the line it ends with", async () => {
  const config = JSON.parse(await Deno.readTextFile(new URL("deno.json", ROOT)));
  assert.equal(config.tasks.test, "deno run --allow-all scripts/test.ts");
  const line = summaryLine([{ passed: 1200, failed: 2, ignored: 0 }, undefined], 125_000);
  // The pattern and the two substitutions .ci/run applies to the log.
  const ci = await Deno.readTextFile(new URL(".ci/run", ROOT));
  assert.match(ci, /grep -E '\^\(ok\|FAILED\) \\\| \[0-9\]\+ passed'/);
  assert.match(line, /^(ok|FAILED) \| [0-9]+ passed/);
  assert.equal(line.replace(/.*\| ([0-9]+) passed.*/, "$1"), "1200");
  assert.equal(line.replace(/.*\| ([0-9]+) failed.*/, "$1"), "3");
  assert.deepEqual(tally(`...\n${line}\n`), { passed: 1200, failed: 3, ignored: 0 });
});

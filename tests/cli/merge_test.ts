import assert from "node:assert/strict";
import { merge, readReports } from "../../cli/merge.ts";
import { UsageError } from "../../lib/model/errors.ts";
import { toJsonReport } from "../../lib/report/json.ts";
import { invalidRunResult } from "../../lib/run/invalid_run.ts";

/** A JSON report of a run where `file` had a problem (so the run failed). */
const report = (file: string) =>
  JSON.stringify(toJsonReport(invalidRunResult({
    run_id: "r",
    started_at: "2026-01-01T00:00:00.000Z",
    problems: [{ file, line: 1, column: 1, code: "bad-key", message: "Bad key." }],
    files: [file],
  })));

Deno.test("merge reads shard reports and writes one JSON report of them all", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/1.json`, report("a.yaml"));
    await Deno.writeTextFile(`${dir}/2.json`, report("b.yaml"));
    const inputs = await readReports([`${dir}/1.json`, `${dir}/2.json`]);
    assert.deepEqual(inputs.map((i) => i.label), [`${dir}/1.json`, `${dir}/2.json`]);
    const code = await merge([
      `${dir}/1.json`,
      `${dir}/2.json`,
      "--report-json",
      `${dir}/all.json`,
    ]);
    assert.equal(code, 1);
    const merged = JSON.parse(await Deno.readTextFile(`${dir}/all.json`));
    assert.deepEqual(merged.flows.map((f: { file: string }) => f.file).sort(), [
      "a.yaml",
      "b.yaml",
    ]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("merge without reports, or with one that cannot be read, is a usage error", async () => {
  await assert.rejects(merge([]), (e) => e instanceof UsageError && e.code === "no-paths");
  await assert.rejects(
    readReports(["/no/such/report.json"]),
    (e) => e instanceof UsageError && e.code === "no-such-path",
  );
});

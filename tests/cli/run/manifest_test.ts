import assert from "node:assert/strict";
import { Artifacts } from "../../../cli/run/artifacts.ts";
import { writeManifest } from "../../../cli/run/manifest.ts";
import { invalidRunResult } from "../../../lib/run/invalid_run.ts";

Deno.test("the manifest records the run, its masked command and the artifacts written before it", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const paths = { json: `${dir}/report.json`, manifest: `${dir}/manifest.json` };
    const artifacts = await Artifacts.open(paths);
    await artifacts.write("json", paths.json, "{}\n");
    const result = invalidRunResult({
      run_id: "r-7",
      started_at: "2026-01-01T00:00:00.000Z",
      problems: [],
      files: ["a.yaml"],
    });
    await writeManifest(artifacts, {
      path: paths.manifest,
      result,
      startedAt: "2026-01-01T00:00:00.000Z",
      exitCode: 4,
      args: ["a.yaml", "--proxy", "http://u:hunter2@proxy:1", "--var", "token=abc-secret"],
      shard: { index: 1, total: 2, source: "FLOWRUN_SHARD" },
      flows: [{ file: "a.yaml", bytes: new TextEncoder().encode("name: a\n") }],
      envRead: new Set(["B", "A"]),
      env: () => undefined,
      redact: (text) => text.replaceAll("abc-secret", "***"),
    });
    const manifest = JSON.parse(await Deno.readTextFile(paths.manifest));
    assert.equal(manifest.run_id, "r-7");
    assert.equal(manifest.exit_code, 4);
    assert.equal(manifest.started_at, "2026-01-01T00:00:00.000Z");
    assert.deepEqual(manifest.command, [
      "flowrun",
      "run",
      "a.yaml",
      "--proxy",
      "http://u:***@proxy:1",
      "--var",
      "token=***",
    ]);
    assert.deepEqual(manifest.shard, { index: 1, total: 2, source: "FLOWRUN_SHARD" });
    assert.deepEqual(manifest.env_read, ["A", "B"]);
    assert.deepEqual(manifest.flows.map((f: { file: string }) => f.file), ["a.yaml"]);
    assert.deepEqual(
      manifest.artifacts.map((a: { kind: string; bytes: number }) => [a.kind, a.bytes]),
      [["json", 3]],
    );
    assert.deepEqual(artifacts.written.map((w) => w.kind), ["json", "manifest"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

import assert from "node:assert/strict";
import { artifactPaths, Artifacts, plainReason } from "../../../cli/run/artifacts.ts";

Deno.test("--out-dir names every artifact but the code quality report and the HAR; explicit paths win", () => {
  assert.deepEqual(artifactPaths({ "out-dir": "out//", "report-junit": "j.xml" }), {
    junit: "j.xml",
    json: "out/report.json",
    html: "out/report.html",
    log: "out/run.log.ndjson",
    manifest: "out/manifest.json",
    codequality: undefined,
    har: undefined,
  });
  assert.deepEqual(artifactPaths({ "report-codequality": "cq.json" }).codequality, "cq.json");
  assert.deepEqual(artifactPaths({ "report-har": "run.har", "out-dir": "out" }).har, "run.har");
});

Deno.test("a write failure's reason is the system's words without the error number or path", () => {
  assert.equal(
    plainReason(new Error("Permission denied (os error 13): open '/x/y'")),
    "Permission denied",
  );
});

Deno.test("an artifact that cannot be written is a failure of its own; the others are written", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/file`, "");
    const artifacts = await Artifacts.open({});
    await artifacts.write("json", `${dir}/file/report.json`, "{}\n");
    await artifacts.write("junit", `${dir}/junit.xml`, "<x/>\n");
    assert.deepEqual(artifacts.failures.map((f) => [f.kind, f.path]), [
      ["json", `${dir}/file/report.json`],
    ]);
    assert.deepEqual(artifacts.written.map((w) => w.kind), ["junit"]);
    assert.equal(await Deno.readTextFile(`${dir}/junit.xml`), "<x/>\n");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

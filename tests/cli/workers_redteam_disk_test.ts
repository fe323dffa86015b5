/**
 * Red-team of `--workers`: what a worker reads again from disk for a flow
 * JSON cannot hold (an include, a data file, a check file) and that changed
 * or vanished after main checked it never runs as something else: the flow
 * runs as checked, the run ends as on one thread, every artifact written.
 */
import assert from "node:assert/strict";
import { runBounded } from "../support/cli.ts";
import { notingServer, sleep, suite } from "../support/workers.ts";

/** 24 flows (a descendant path each: a worker loads them again) that read other files. */
function flows(base: string): Record<string, string> {
  const files: Record<string, string> = {
    "common/get.yaml": `name: get
steps:
  - name: get
    request: {url: "${base}/checked-include"}
`,
    "common/gone.yaml": `name: gone
steps:
  - name: get
    request: {url: "${base}/checked-gone"}
`,
    "data/rows.csv": "name,what\nr1,checked-row\nr2,checked-row\n",
    "checks/ok.yaml": `- {path: $.ok, equals: "checked"}\n`,
  };
  for (let i = 0; i < 24; i++) {
    const check = `assert: {json: [{path: $.json..ok, contains: checked}]}`;
    files[`flows/f${String(i).padStart(2, "0")}.yaml`] = [
      `name: include ${i}
steps:
  - name: inc
    include: ../common/${i % 9 ? "get" : "gone"}.yaml
  - name: check
    request: {url: "${base}/x?n=${i}"}
    ${check}
`,
      `name: rows ${i}
data: {file: ../data/rows.csv}
vars: {name: "", what: ""}
steps:
  - name: get
    request: {url: "${base}/\${vars.what}?n=${i}"}
    ${check}
`,
      `name: checks ${i}
steps:
  - name: get
    request: {url: "${base}/x?n=${i}"}
    assert: {json: [{at: $.json, checks: ../checks/ok.yaml}, {path: $.json..ok, contains: checked}]}
`,
    ][i % 3];
  }
  return files;
}

Deno.test("an include, data or check file edited or removed during the run never runs changed on a worker", async () => {
  let edited = false;
  const api = notingServer(async () => {
    if (!edited) {
      edited = true;
      for (const file of ["common/get.yaml", "data/rows.csv", "checks/ok.yaml"]) {
        const text = await Deno.readTextFile(`${dir}/${file}`);
        await Deno.writeTextFile(`${dir}/${file}`, text.replaceAll("checked", "changed"));
      }
      await Deno.remove(`${dir}/common/gone.yaml`);
    }
    await sleep(5);
    return Response.json({ ok: "checked" });
  });
  const dir = await suite(flows(api.base));
  try {
    const run = await runBounded(
      ["run", "flows", "--workers", "3", "--jobs", "3", "--out-dir", "out"],
      { cwd: dir },
    );
    assert.equal(run.killed, false);
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.ok(edited);
    assert.deepEqual(api.seen.filter((s) => s.path.includes("changed")).map((s) => s.path), []);
    const report = JSON.parse(await Deno.readTextFile(`${dir}/out/report.json`));
    assert.equal(report.totals.flows.passed, 32);
    for (const artifact of ["junit.xml", "report.html", "manifest.json", "run.log.ndjson"]) {
      assert.ok((await Deno.stat(`${dir}/out/${artifact}`)).size > 0, artifact);
    }
    assert.equal(api.seen.filter((s) => s.path === "/checked-gone").length, 3);
  } finally {
    await api.stop();
    await Deno.remove(dir, { recursive: true });
  }
});

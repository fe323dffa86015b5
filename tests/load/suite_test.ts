/**
 * The set pipeline end to end: problems of every stage come back together,
 * in file order; a filter selects files by path or name (problem files too);
 * `--tag` keeps part of a flow; the unused-var warning is given only for
 * the whole set without problems; flows past the window are held, and their
 * bytes are at hand for the manifest when nothing will run.
 */
import assert from "node:assert/strict";
import { loadFlows, loadFlowsDeferred } from "../../lib/load/suite.ts";
import { isDeferred } from "../../lib/model/flow.ts";
import { withFiles } from "../support/with_files.ts";

const ok = (name: string, extra = "") =>
  `name: ${name}\n${extra}steps:\n  - name: s\n    tags: [read]\n    request: {url: "http://x.test/\${user}"}\n` +
  `  - name: w\n    tags: [write]\n    request: {url: http://x.test/w}\n`;

Deno.test("problems of every stage come back together, in file order", async () => {
  await withFiles({
    "a.yaml": ok("a", "vars: {user: ann}\n"),
    "b.yaml": "name: b\nstep: []\n",
    "c.yaml": ok("c", "vars: {user: x}\ndata: {file: rows.csv}\n"),
    "d.yaml": "", // not UTF-8: written as bytes below
  }, async (dir) => {
    await Deno.writeFile(`${dir}/d.yaml`, new Uint8Array([0xff]));
    const { flows, problems, files } = await loadFlows([dir]);
    assert.deepEqual(files.map((f) => f.slice(dir.length + 1)), [
      "a.yaml",
      "b.yaml",
      "c.yaml",
      "d.yaml",
    ]);
    assert.deepEqual(flows.map((f) => f.name), ["a"]);
    assert.deepEqual(
      problems.map((p) => p.file.slice(dir.length + 1)),
      ["b.yaml", "c.yaml", "d.yaml"],
    );
    assert.equal(problems[1].hint, "The path is relative to the flow file.");
  });
});

Deno.test("a filter selects by path or name; --tag keeps part of a flow", async () => {
  await withFiles({
    "a.yaml": ok("alpha", "vars: {user: ann}\n"),
    "b.yaml": ok("beta", "vars: {user: bob}\n"),
    "bad.yaml": "name: gamma\nstep: []\n",
  }, async (dir) => {
    const byName = await loadFlows([dir], { filter: ["beta"] });
    assert.deepEqual(byName.flows.map((f) => f.name), ["beta"]);
    const problemByName = await loadFlows([dir], { filter: ["gamma"] });
    assert.deepEqual(problemByName.problems.map((p) => p.code), ["unknown-key"]);
    const tagged = await loadFlows([dir], { tags: "write" });
    assert.deepEqual(tagged.flows.map((f) => f.steps.map((s) => s.name).join()), ["w", "w"]);
    assert.equal(tagged.problems.length, 1, "a flow with problems is kept whatever its tags");
    assert.deepEqual((await loadFlows([dir], { tags: "ui" })).flows, []);
  });
});

Deno.test("--var no flow reads is a warning only for a whole set without problems", async () => {
  await withFiles({ "a.yaml": ok("a", "vars: {user: ann}\n") }, async (dir) => {
    const params = new Map([["user", "x"], ["usr", "y"]]);
    const whole = await loadFlows([dir], { params });
    assert.deepEqual(whole.warnings.map((w) => [w.code, w.name]), [["unused-var", "usr"]]);
    assert.deepEqual((await loadFlows([dir], { params, filter: ["a"] })).warnings, []);
    assert.deepEqual((await loadFlows([dir], { params, tags: "read" })).warnings, []);
    assert.deepEqual(
      (await loadFlows([dir], { params, shard: { index: 1, total: 1 } })).warnings,
      [],
    );
  });
});

Deno.test("past the window flows are held; with problems their bytes are in the result", async () => {
  const files: Record<string, string> = {};
  for (const n of ["a", "b", "c"]) files[`${n}.yaml`] = ok(n, "vars: {user: u}\n");
  await withFiles(files, async (dir) => {
    const held = await loadFlowsDeferred([dir], {}, 1);
    assert.deepEqual(held.flows.map(isDeferred), [false, true, true]);
    assert.equal(held.bytes.size, 3);
    await Deno.writeTextFile(`${dir}/z.yaml`, "name: z\nstep: []\n");
    const spill = { put: (bytes: Uint8Array) => () => bytes };
    const failing = await loadFlowsDeferred([dir], { spill }, 1);
    assert.equal(failing.problems.length, 1);
    assert.deepEqual(failing.flows.map(isDeferred), [false, true, true]);
    assert.equal(failing.bytes.size, 4, "held bytes are back for the manifest: nothing will run");
    assert.equal(
      new TextDecoder().decode(failing.bytes.get(`${dir}/b.yaml`)),
      files["b.yaml"],
    );
  });
});

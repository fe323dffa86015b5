/**
 * Check files through the loader (issue 40, item 4): what a group that
 * names one loads into, for `checks` and `else`, the map form with anchors,
 * a file used twice in one flow, and a flow loaded from its text alone.
 */
import assert from "node:assert/strict";
import { loadFlow, loadFlows } from "../../lib/load/mod.ts";
import { FlowFiles } from "../../lib/load/expand_includes.ts";

async function withFiles<T>(files: Record<string, string>, body: (dir: string) => Promise<T>) {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-checkfile-load-" });
  try {
    for (const [path, text] of Object.entries(files)) {
      await Deno.mkdir(`${dir}/${path}`.replace(/\/[^/]*$/, ""), { recursive: true });
      await Deno.writeTextFile(`${dir}/${path}`, text);
    }
    return await body(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

const step = (name: string, assert: string) =>
  `  - name: ${name}\n    request: {url: "http://x.test/\${vars.id}"}\n    assert: ${assert}\n`;

Deno.test("a flow loaded from its text alone cannot read a check file: one problem at its path", () => {
  const { problems } = loadFlow(
    `name: f\nvars: {id: 1}\nsteps:\n${step("s", "{json: [{at: $.json.a, checks: a.yaml}]}")}`,
    "f.yaml",
  );
  assert.deepEqual(problems.map((p) => `${p.line}:${p.column} ${p.code}`), [
    "6:44 check-file-unavailable",
  ]);
  assert.match(
    problems[0].message,
    /"checks" names the check file "a\.yaml", but this flow was loaded from its text alone\./,
  );
});

Deno.test("checks and else may both name check files; paths keep the list's root under at", async () => {
  await withFiles({
    "checks/full.yaml":
      "x-id: &id {path: $.id, type: integer, name: id}\nchecks:\n  - *id\n  - {path: $.tags, type: array}\n",
    "checks/empty.yaml": "- {path: $.count, equals: 0}\n",
    "flows/f.yaml": `name: f\nvars: {id: 1}\nsteps:\n${
      step(
        "a",
        "{json: [{at: $.json.item, if: {path: $.json.count, gt: 0}, checks: ../checks/full.yaml, else: ../checks/empty.yaml}]}",
      )
    }${step("b", "{jsonpath: [{at: $.item, checks: ../checks/full.yaml, name: again}]}")}`,
  }, async (dir) => {
    const { flows, problems, included } = await loadFlows([`${dir}/flows`]);
    assert.deepEqual(problems, []);
    const [a, b] = flows[0] && "steps" in flows[0] ? flows[0].steps : [];
    const shown = (checks = a.assert!.paths) =>
      checks.map((c) =>
        `${c.name} ${c.path.source} ${c.base?.[0].source} ${c.groups?.[0]?.branch} ${
          c.file?.slice(dir.length)
        }:${c.line}`
      );
    assert.deepEqual(shown(), [
      "full › id $.id $.json.item then /checks/full.yaml:1",
      "full $.tags $.json.item then /checks/full.yaml:4",
      "full $.count $.json.item else /checks/empty.yaml:1",
    ]);
    assert.deepEqual(a.assert!.paths[0].groups?.[0].group.counts, { then: 2, else: 1 });
    assert.deepEqual(shown(b.assert!.paths), [
      "again › id $.id $.item undefined /checks/full.yaml:1",
      "again $.tags $.item undefined /checks/full.yaml:4",
    ]);
    assert.deepEqual(included.map((f) => f.slice(dir.length)).sort(), [
      "/checks/empty.yaml",
      "/checks/full.yaml",
    ]);
  });
});

Deno.test("a check file's path is read as the flow loads: an expression or an empty path is one problem", () => {
  for (
    const [path, code] of [['"${vars.id}.yaml"', "expression-not-allowed"], ['""', "wrong-type"]]
  ) {
    const { problems } = loadFlow(
      `name: f\nvars: {id: 1}\nsteps:\n${step("s", `{json: [{at: $.json.a, checks: ${path}}]}`)}`,
      "f.yaml",
    );
    assert.deepEqual(problems.map((p) => p.code), [code], path);
  }
});

Deno.test("an included flow whose check file has a problem: the include names the check file", async () => {
  await withFiles({
    "checks/a.yaml": "- {path: $.a, tpye: string}\n",
    "common/part.yaml": `name: part\nvars: {id: 1}\nsteps:\n${
      step("s", "{json: [{at: $.json.a, checks: ../checks/a.yaml}]}")
    }`,
    "flows/f.yaml": "name: f\nsteps:\n  - name: inc\n    include: ../common/part.yaml\n",
  }, async (dir) => {
    const files = new FlowFiles({});
    const got = files.load(`${dir}/flows/f.yaml`, await Deno.readTextFile(`${dir}/flows/f.yaml`));
    assert.deepEqual(got.problems.map((p) => p.code), ["include-problems"]);
    assert.equal(
      got.problems[0].message,
      `The included flow "../common/part.yaml" has a problem, listed under ${dir}/checks/a.yaml.`,
    );
  });
});

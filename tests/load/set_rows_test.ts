/**
 * The data-row stage: a data-driven flow's rows from its file, relative to
 * the flow file; a file that cannot be read, is no rows, or has columns the
 * flow does not declare is one positioned `bad-data` (or read) problem.
 */
import assert from "node:assert/strict";
import { readRows } from "../../lib/load/set_rows.ts";
import type { Flow } from "../../lib/model/flow.ts";

const flowWith = (dir: string, path: string, vars: string[]) =>
  ({
    file: `${dir}/f.yaml`,
    name: "f",
    steps: [],
    vars: vars.map((name) => ({ name })),
    dataFile: { path, line: 3, column: 9 },
  }) as unknown as Flow;

Deno.test("rows come from the file beside the flow; problems are at the data key", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-rows-" });
  try {
    await Deno.mkdir(`${dir}/data`);
    await Deno.writeTextFile(`${dir}/data/users.csv`, "user,role\nann,admin\nbob,viewer\n");
    const ok = flowWith(dir, "data/users.csv", ["user", "role"]);
    assert.equal(await readRows(ok, `${dir}/f.yaml`), undefined);
    assert.deepEqual(ok.rows?.map((r) => r.values.user), ["ann", "bob"]);

    const undeclared = flowWith(dir, "data/users.csv", ["user"]);
    const problem = await readRows(undeclared, `${dir}/f.yaml`);
    assert.equal(problem?.code, "bad-data");
    assert.deepEqual([problem?.line, problem?.column], [3, 9]);
    assert.match(problem!.message, /has column "role" that the flow does not declare/);
    assert.equal(undeclared.rows, undefined);

    const missing = await readRows(flowWith(dir, "nope.csv", []), `${dir}/f.yaml`);
    assert.match(missing!.message, /^Could not read the data file "nope.csv"/);
    assert.equal(missing!.hint, "The path is relative to the flow file.");

    await Deno.writeTextFile(`${dir}/empty.json`, "[]");
    const empty = await readRows(flowWith(dir, "empty.json", []), `${dir}/f.yaml`);
    assert.equal(empty?.code, "bad-data");
    assert.match(empty!.message, /cannot be read as rows: it must hold a non-empty list/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a header of many undeclared columns names 20 of them, each cut to 80 characters", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-rows-" });
  try {
    const header = Array.from({ length: 25 }, (_, i) => `c${i}${"x".repeat(100)}`);
    await Deno.writeTextFile(`${dir}/wide.csv`, `${header.join(",")}\n${header.map(() => 1)}\n`);
    const problem = await readRows(flowWith(dir, "wide.csv", []), `${dir}/f.yaml`);
    assert.match(problem!.message, / and 5 more that the flow does not declare under vars\.$/);
    assert.equal(problem!.message.match(/"c\d+x+"/g)?.length, 20);
    assert.ok(problem!.message.match(/"c\d+x+"/g)!.every((q) => q.length === 82));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a YAML data file nested past 64 levels is one bad-data problem at the place, not a stack overflow", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-rows-" });
  try {
    const deep = 200_000;
    await Deno.writeTextFile(`${dir}/rows.yaml`, `- a: ${"[".repeat(deep)}${"]".repeat(deep)}\n`);
    const problem = await readRows(flowWith(dir, "rows.yaml", ["a"]), `${dir}/f.yaml`);
    assert.equal(problem?.code, "bad-data");
    assert.match(problem!.message, /nest more than 64 levels deep at line 1, column \d+\)/);
    assert.doesNotMatch(problem!.message, /call stack/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

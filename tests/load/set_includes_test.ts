/**
 * The include stage: the files a flow includes join the set once, with their
 * problems, however many flows include them; a file that is selected itself
 * is not listed as included.
 */
import assert from "node:assert/strict";
import { addIncludes } from "../../lib/load/set_includes.ts";
import { emptySet } from "../../lib/load/set_types.ts";
import { FlowFiles } from "../../lib/load/expand_includes.ts";
import "../support/engines.ts";

Deno.test("an included file is listed once, with its problems and bytes", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-includes-" });
  try {
    await Deno.writeTextFile(
      `${dir}/part.yaml`,
      "name: part\nsteps:\n  - name: p\n    request: {url: http://x.test}\n    bogus: 1\n",
    );
    const main = (n: string) => `name: ${n}\nsteps:\n  - name: m\n    include: part.yaml\n`;
    const files = new FlowFiles({});
    files.load(`${dir}/a.yaml`, main("a"));
    files.load(`${dir}/b.yaml`, main("b"));
    const set = emptySet();
    addIncludes(set, files, `${dir}/a.yaml`);
    addIncludes(set, files, `${dir}/b.yaml`);
    assert.deepEqual(set.result.included, [`${dir}/part.yaml`]);
    assert.ok(set.result.bytes.has(`${dir}/part.yaml`));
    assert.deepEqual(set.result.problems.map((p) => [p.code, p.file]), [
      ["unknown-key", `${dir}/part.yaml`],
    ]);
    assert.ok(set.reported.has(`${dir}/a.yaml`) && set.reported.has(`${dir}/b.yaml`));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a selected file that another includes is not listed as included", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-includes-" });
  try {
    await Deno.writeTextFile(
      `${dir}/part.yaml`,
      "name: part\nsteps:\n  - name: p\n    request: {url: http://x.test}\n",
    );
    const files = new FlowFiles({});
    files.load(`${dir}/a.yaml`, "name: a\nsteps:\n  - name: m\n    include: part.yaml\n");
    const set = emptySet();
    set.result.files.push(`${dir}/part.yaml`);
    addIncludes(set, files, `${dir}/a.yaml`);
    assert.deepEqual(set.result.included, []);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

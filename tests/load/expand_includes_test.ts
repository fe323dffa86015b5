/**
 * The files of a set and the files they include: an included file is read
 * once however many flows include it, relative to the file that includes
 * it; a file loaded and forgotten is loaded again from the bytes it was
 * checked with, never from the disk; a file that reads no other file is
 * standalone.
 */
import assert from "node:assert/strict";
import { FlowFiles, relativeTo } from "../../lib/load/expand_includes.ts";
import "../support/engines.ts";

const part = "name: part\nsteps:\n  - name: p\n    request: {url: http://x.test}\n";
const includer = (name: string, path: string) =>
  `name: ${name}\nsteps:\n  - name: m\n    include: ${path}\n`;

Deno.test("paths of includes are relative to the including file", () => {
  assert.equal(relativeTo("flows/a.yaml", "part.yaml"), "flows/part.yaml");
  assert.equal(relativeTo("flows/a.yaml", "../common/p.yaml"), "common/p.yaml");
  assert.equal(relativeTo("/abs/flows/a.yaml", "./x/../p.yaml"), "/abs/flows/p.yaml");
  assert.equal(relativeTo("a.yaml", "/etc/p.yaml"), "/etc/p.yaml");
});

Deno.test("an included file is read once; includers are not standalone", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-expand-" });
  try {
    await Deno.mkdir(`${dir}/sub`);
    await Deno.writeTextFile(`${dir}/sub/part.yaml`, part);
    const files = new FlowFiles({});
    const a = files.load(`${dir}/a.yaml`, includer("a", "sub/part.yaml"));
    await Deno.writeTextFile(`${dir}/sub/part.yaml`, "changed: on disk\n");
    const b = files.load(`${dir}/b.yaml`, includer("b", "sub/part.yaml"));
    assert.equal(a.flow?.steps[0].include?.flow, b.flow?.steps[0].include?.flow);
    assert.deepEqual([...files.included.keys()], [`${dir}/sub/part.yaml`]);
    assert.deepEqual(files.closure(`${dir}/a.yaml`), [`${dir}/sub/part.yaml`]);
    assert.equal(files.standalone(`${dir}/a.yaml`), false);
    assert.equal(files.standalone(`${dir}/sub/part.yaml`), true);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a forgotten file is loaded again from its bytes when included", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-expand-" });
  try {
    const files = new FlowFiles({});
    const first = files.load(`${dir}/part.yaml`, part);
    files.forget(`${dir}/part.yaml`, new TextEncoder().encode(part));
    assert.equal(files.result(`${dir}/part.yaml`), undefined);
    // Not on the disk at all: the bytes it was checked with are used.
    const main = files.load(`${dir}/main.yaml`, includer("main", "part.yaml"));
    assert.deepEqual(main.problems, []);
    assert.equal(main.flow?.steps[0].include?.flow.name, first.flow?.name);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

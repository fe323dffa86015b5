/**
 * Setup and teardown flows: loaded first and in the order given, their
 * outputs what teardown flows (and every other flow) may read as
 * `${setup.NAME}`; an output two setup flows hand out is a problem; a setup
 * file that cannot be read is its own problem and no flow.
 */
import assert from "node:assert/strict";
import { loadSpecialFlows } from "../../lib/load/set_special.ts";
import { emptySet } from "../../lib/load/set_types.ts";

const flow = (name: string, extra = "") =>
  `name: ${name}\nsteps:\n  - name: s\n    request: {url: "http://x.test/${extra}"}\n`;

Deno.test("setup outputs reach the teardown flows; a repeated output is a problem", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-special-" });
  try {
    await Deno.writeTextFile(`${dir}/login.yaml`, `${flow("login")}outputs: {token: t}\n`);
    await Deno.writeTextFile(`${dir}/again.yaml`, `${flow("again")}outputs: {token: u}\n`);
    await Deno.writeTextFile(`${dir}/down.yaml`, flow("down", "${setup.token}"));
    await Deno.writeTextFile(`${dir}/bad.yaml`, flow("bad", "${setup.other}"));
    const set = emptySet();
    const outputs = await loadSpecialFlows(set, {
      setupFiles: [`${dir}/login.yaml`, `${dir}/again.yaml`],
      teardownFiles: [`${dir}/down.yaml`, `${dir}/bad.yaml`],
    });
    assert.deepEqual([...outputs ?? []], ["token"]);
    assert.deepEqual(set.result.setup.map((f) => f.name), ["login", "again"]);
    assert.deepEqual(set.result.teardown.map((f) => f.name), ["down"]);
    assert.deepEqual(set.result.files, [
      `${dir}/login.yaml`,
      `${dir}/again.yaml`,
      `${dir}/down.yaml`,
      `${dir}/bad.yaml`,
    ]);
    assert.equal(set.result.bytes.size, 4);
    const codes = set.result.problems.map((p) => [p.code, p.file]);
    assert.deepEqual(codes[0], ["duplicate-output", `${dir}/again.yaml`]);
    assert.equal(codes.length, 2);
    assert.equal(codes[1][1], `${dir}/bad.yaml`, "an output no setup flow hands out");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a setup file that cannot be read is one problem with the --setup hint", async () => {
  const set = emptySet();
  await loadSpecialFlows(set, { setupFiles: ["/no/such/setup.yaml"] });
  assert.equal(set.result.setup.length, 0);
  assert.deepEqual(set.result.files, ["/no/such/setup.yaml"]);
  assert.equal(set.result.bytes.size, 0);
  assert.equal(set.result.problems.length, 1);
  assert.equal(set.result.problems[0].hint, "Check the path given to --setup or --teardown.");
});

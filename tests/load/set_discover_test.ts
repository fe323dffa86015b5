/**
 * The first stages of a set load: every flow file under the paths, setup and
 * teardown files left out however they are spelled, then this shard's part,
 * by count or by earlier timings; the shards of a set cover it once.
 */
import assert from "node:assert/strict";
import { discoverSet } from "../../lib/load/set_discover.ts";
import { UsageError } from "../../lib/model/errors.ts";

async function withFlows<T>(names: string[], use: (dir: string) => Promise<T>): Promise<T> {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-set-" });
  try {
    for (const name of names) {
      await Deno.mkdir(`${dir}/${name}`.replace(/\/[^/]*$/, ""), { recursive: true });
      await Deno.writeTextFile(`${dir}/${name}`, "name: x\n");
    }
    return await use(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("setup and teardown files are not regular flows, as given or spelled with ./", async () => {
  await withFlows(["a.yaml", "b.yml", "sub/c.yaml", "setup.yaml", "teardown.yaml"], async (dir) => {
    const all = await discoverSet([dir], {});
    assert.deepEqual(all.map((e) => e.key), [
      "a.yaml",
      "b.yml",
      "setup.yaml",
      "sub/c.yaml",
      "teardown.yaml",
    ]);
    const setup = all.find((e) => e.key === "setup.yaml")!.file;
    const teardown = all.find((e) => e.key === "teardown.yaml")!.file;
    const regular = await discoverSet([dir], {
      setupFiles: [setup.startsWith("/") ? setup : `./${setup}`],
      teardownFiles: [teardown],
    });
    assert.deepEqual(regular.map((e) => e.key), ["a.yaml", "b.yml", "sub/c.yaml"]);
  });
});

Deno.test("the shards of a set cover every file once, by count or by timings", async () => {
  const names = Array.from({ length: 9 }, (_, i) => `f${i}.yaml`);
  await withFlows(names, async (dir) => {
    for (const shardTimes of [undefined, new Map(names.map((n, i) => [n, i * 100]))]) {
      const parts = [];
      for (let index = 1; index <= 3; index++) {
        parts.push(await discoverSet([dir], { shard: { index, total: 3 }, shardTimes }));
      }
      const keys = parts.flat().map((e) => e.key).sort();
      assert.deepEqual(keys, names);
      assert.ok(parts.every((p) => p.length > 0), "every shard gets work");
    }
  });
});

Deno.test("a missing path is a usage error, not a problem", async () => {
  await assert.rejects(
    () => discoverSet(["/no/such/flowrun/path"], {}),
    (e: unknown) => e instanceof UsageError && e.code === "no-such-path",
  );
});

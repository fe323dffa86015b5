/**
 * The flow cache's disk side: entries survive a process, and whatever is
 * wrong with the folder is a miss or a skipped write, never a hang or an
 * error of the run.
 */
import assert from "node:assert/strict";
import { flowCacheIn } from "../../lib/io/cache_dir.ts";
import { isLinux, names, tempDir } from "../support/fs.ts";

Deno.test("entries written are read back by a later cache; a missing folder is all misses", async () => {
  const dir = await tempDir();
  try {
    assert.equal(flowCacheIn(`${dir}/none`).read("k"), undefined);
    const cache = flowCacheIn(`${dir}/cache`);
    cache.write("a", '{"a":1}');
    cache.write("b", '{"b":2}');
    await cache.flush();
    const later = flowCacheIn(`${dir}/cache`);
    assert.equal(later.read("a"), '{"a":1}');
    assert.equal(later.read("b"), '{"b":2}');
    assert.equal(later.read("c"), undefined);
    assert.deepEqual(await names(`${dir}/cache`), ["a.json", "b.json"], "no temporary file left");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test({
  name: "a FIFO or a symlink in the cache folder is a miss, and is replaced, never opened",
  ignore: !isLinux,
  async fn() {
    const dir = await tempDir();
    try {
      await Deno.mkdir(`${dir}/cache`);
      const made = await new Deno.Command("mkfifo", { args: [`${dir}/cache/f.json`] }).output();
      assert.ok(made.success);
      await Deno.writeTextFile(`${dir}/elsewhere.json`, "kept");
      await Deno.symlink(`${dir}/elsewhere.json`, `${dir}/cache/l.json`);
      const cache = flowCacheIn(`${dir}/cache`);
      assert.equal(cache.read("f"), undefined, "a FIFO is a miss, not a hang");
      cache.write("f", "{}");
      cache.write("l", "{}");
      await cache.flush();
      assert.ok((await Deno.lstat(`${dir}/cache/f.json`)).isFile, "the FIFO was replaced");
      assert.ok((await Deno.lstat(`${dir}/cache/l.json`)).isFile, "the link was replaced");
      assert.equal(await Deno.readTextFile(`${dir}/elsewhere.json`), "kept", "not written through");
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test("a cache folder that cannot be made only skips the writes", async () => {
  const dir = await tempDir();
  try {
    await Deno.writeTextFile(`${dir}/file`, "");
    const cache = flowCacheIn(`${dir}/file/cache`);
    cache.write("a", "{}");
    await cache.flush();
    assert.equal(cache.read("a"), undefined);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

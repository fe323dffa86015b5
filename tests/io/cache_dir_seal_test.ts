import assert from "node:assert/strict";
import "../support/engines.ts";
import { flowCacheIn } from "../../lib/io/cache_dir.ts";
import { loadFlows } from "../../lib/load/suite.ts";

async function withDir(body: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-cache-seal-" });
  try {
    await body(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** Makes the cache's key under DIR/config by writing one entry; the key file's path. */
async function keyMade(dir: string): Promise<string> {
  const secretPath = `${dir}/config/flowrun/cache-key`;
  const first = flowCacheIn(`${dir}/cache`, { secretPath });
  first.write("k", "{}");
  await first.flush();
  return secretPath;
}

Deno.test("a sealed entry reads back under the same key, and a changed byte or another key is a miss", async () => {
  await withDir(async (dir) => {
    const secretPath = `${dir}/config/flowrun/cache-key`;
    const cache = flowCacheIn(`${dir}/cache`, { secretPath });
    cache.write("k", '{"a":1}');
    await cache.flush();
    assert.equal(flowCacheIn(`${dir}/cache`, { secretPath }).read("k"), '{"a":1}');
    const file = `${dir}/cache/k.json`;
    const sealed = Deno.readTextFileSync(file);
    for (
      const edited of [
        sealed.replace('"a":1', '"a":2'),
        sealed + " ",
        sealed.slice(sealed.indexOf("\n") + 1),
        // The MAC's first digit changed (to 1 where it was 0: one key in 16 starts with 0).
        sealed.replace(/^(\S+ )(.)/, (_, head, digit) => `${head}${digit === "0" ? "1" : "0"}`),
      ]
    ) {
      assert.notEqual(edited, sealed);
      Deno.writeTextFileSync(file, edited, { mode: 0o600 });
      assert.equal(flowCacheIn(`${dir}/cache`, { secretPath }).read("k"), undefined, edited);
    }
    // An entry moved to another key's name is a miss too.
    Deno.writeTextFileSync(file, sealed);
    Deno.renameSync(file, `${dir}/cache/j.json`);
    assert.equal(flowCacheIn(`${dir}/cache`, { secretPath }).read("j"), undefined);
    Deno.renameSync(`${dir}/cache/j.json`, file);
    assert.equal(
      flowCacheIn(`${dir}/cache`, { secretPath: `${dir}/other/cache-key` }).read("k"),
      undefined,
    );
    if (Deno.build.os !== "windows") {
      assert.equal(Deno.statSync(secretPath).mode! & 0o077, 0);
      assert.equal(Deno.statSync(`${dir}/config/flowrun`).mode! & 0o077, 0);
    }
  });
});

Deno.test({
  name: "a key file or key folder others can write is not used: the cache is off, with a warning",
  ignore: Deno.build.os === "windows",
  async fn() {
    await withDir(async (dir) => {
      const secretPath = await keyMade(dir);
      for (const [path, mode] of [[secretPath, 0o622], [`${dir}/config/flowrun`, 0o777]] as const) {
        Deno.chmodSync(path, mode);
        const warnings: string[] = [];
        const cache = flowCacheIn(`${dir}/cache`, {
          secretPath,
          warn: (w) => warnings.push(`warning[${w.code}]: ${w.message}`),
        });
        assert.equal(cache.read("k"), undefined);
        cache.write("k2", "{}");
        await cache.flush();
        assert.equal(warnings.length, 1, warnings.join());
        assert.match(
          warnings[0],
          /^warning\[cache-not-trusted\]: --cache-dir ".*\/cache" is not used: /,
        );
        assert.ok(warnings[0].includes(path), warnings[0]);
        assert.ok(!Deno.readDirSync(`${dir}/cache`).some((e) => e.name === "k2.json"));
        Deno.chmodSync(path, path === secretPath ? 0o600 : 0o700);
      }
    });
  },
});

Deno.test("loading through the folder cache reads an unchanged flow back on the second load", async () => {
  await withDir(async (dir) => {
    await Deno.writeTextFile(
      `${dir}/f.yaml`,
      'name: f\nsteps:\n  - name: s\n    request: {url: "http://x.test/a"}\n',
    );
    const secretPath = `${dir}/config/flowrun/cache-key`;
    const counted = () => {
      const disk = flowCacheIn(`${dir}/cache`, { secretPath });
      const counts = { hits: 0 };
      return {
        counts,
        disk,
        cache: {
          read(key: string) {
            const text = disk.read(key);
            if (text !== undefined) counts.hits++;
            return text;
          },
          write: disk.write,
        },
      };
    };
    const a = counted();
    await loadFlows([`${dir}/f.yaml`], { cache: a.cache });
    await a.disk.flush();
    const b = counted();
    const again = await loadFlows([`${dir}/f.yaml`], { cache: b.cache });
    assert.deepEqual(again.problems, []);
    assert.equal(b.counts.hits, 1);
  });
});

Deno.test({
  name: "when flowrun cannot tell which user it runs as, the cache is off, with a warning",
  ignore: Deno.build.os === "windows",
  async fn() {
    await withDir(async (dir) => {
      const secretPath = await keyMade(dir);
      const warnings: string[] = [];
      const before = Deno.env.get("TMPDIR");
      // No temporary file can be made: the owner of one is how flowrun learns its user id.
      Deno.env.set("TMPDIR", `${dir}/missing`);
      try {
        const cache = flowCacheIn(`${dir}/cache`, {
          secretPath,
          warn: (w) => warnings.push(w.message),
        });
        assert.equal(cache.read("k"), undefined);
      } finally {
        if (before === undefined) Deno.env.delete("TMPDIR");
        else Deno.env.set("TMPDIR", before);
      }
      assert.equal(warnings.length, 1, warnings.join());
      assert.match(warnings[0], /cannot tell which user/);
    });
  },
});

Deno.test("runs that start together all read the one key the first of them made", async () => {
  await withDir(async (dir) => {
    const module = new URL("../../lib/io/cache_secret.ts", import.meta.url).href;
    const code = `const { cacheSecret } = await import(${JSON.stringify(module)});` +
      `const s = cacheSecret(${JSON.stringify(`${dir}/config/flowrun/cache-key`)}, undefined);` +
      `console.log("key" in s ? s.key.join(",") : s.problem);`;
    const runs = await Promise.all(
      Array.from(
        { length: 4 },
        () =>
          new Deno.Command(Deno.execPath(), { args: ["eval", code], stderr: "inherit" }).output(),
      ),
    );
    const keys = runs.map((r) => new TextDecoder().decode(r.stdout).trim());
    assert.equal(new Set(keys).size, 1, keys.join("\n"));
    assert.match(keys[0], /^\d+(,\d+){31}$/);
    assert.deepEqual([...Deno.readDirSync(`${dir}/config/flowrun`)].map((e) => e.name), [
      "cache-key",
    ]);
  });
});

/**
 * The load stage of a set: files load through one FlowFiles, with setup
 * outputs checked when setup files were given; with a cache, a file loaded
 * before is read back (and the environment asked again), and a file some
 * flow already included is neither loaded again nor cached.
 */
import assert from "node:assert/strict";
import { SetLoader } from "../../lib/load/set_loader.ts";
import type { FlowCache } from "../../lib/load/flow_cache.ts";

const text = 'name: a\nsteps:\n  - name: s\n    request: {url: "${ENV.BASE}/${setup.token}"}\n';

function memoryCache(): FlowCache & { entries: Map<string, string>; reads: number } {
  const entries = new Map<string, string>();
  return {
    entries,
    reads: 0,
    read(key) {
      this.reads++;
      return entries.get(key);
    },
    write(key, value) {
      entries.set(key, value);
    },
  };
}

Deno.test("setup outputs are checked only when setup files were given", async () => {
  const env = () => "http://x.test";
  const checked = await new SetLoader({ setupFiles: [], env }, new Set()).load("a.yaml", text);
  assert.equal(checked.problems.length, 1);
  const unchecked = await new SetLoader({ env }, new Set()).load("a.yaml", text);
  assert.equal(unchecked.problems.length, 0);
  assert.equal(
    (await new SetLoader({ setupFiles: [], env }, new Set(["token"])).load("a.yaml", text)).problems
      .length,
    0,
  );
});

Deno.test("a cached load is read back while the environment answers alike", async () => {
  const cache = memoryCache();
  const asked: string[] = [];
  let base: string | undefined = "http://x.test";
  const env = (name: string) => {
    asked.push(name);
    return name === "BASE" ? base : undefined;
  };
  const options = { setupFiles: [], env, cache };
  const first = await new SetLoader(options, new Set(["token"])).load("a.yaml", text);
  assert.ok(first.flow);
  assert.equal(cache.entries.size, 1);
  asked.length = 0;
  const again = await new SetLoader(options, new Set(["token"])).load("a.yaml", text);
  assert.deepEqual(again.flow, JSON.parse(JSON.stringify(first.flow)));
  assert.deepEqual(asked, ["BASE"], "the environment is asked again on a hit");
  base = undefined;
  const unset = await new SetLoader(options, new Set(["token"])).load("a.yaml", text);
  assert.equal(unset.problems[0]?.code, "unset-env", "a changed answer is a miss");
});

Deno.test("a file loaded already (by an include) is not loaded or cached again", async () => {
  const cache = memoryCache();
  const loader = new SetLoader({ cache }, new Set());
  const plain = "name: b\nsteps:\n  - name: s\n    request: {url: http://x.test}\n";
  const first = await loader.load("b.yaml", plain);
  const reads = cache.reads;
  const second = await loader.load("b.yaml", plain);
  assert.equal(second, first);
  assert.equal(cache.reads, reads);
});

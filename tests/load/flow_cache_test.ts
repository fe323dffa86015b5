import assert from "node:assert/strict";
import "../support/engines.ts";
import { startDemoApi } from "../../examples/demo_api.ts";
import type { FlowCache } from "../../lib/load/flow_cache.ts";
import { loadFlows } from "../../lib/load/suite.ts";
import { runCli } from "../support/cli.ts";

/** A cache in memory that counts what it was asked. */
function memoryCache() {
  const entries = new Map<string, string>();
  const counts = { hits: 0, misses: 0, writes: 0 };
  const cache: FlowCache = {
    read(key) {
      const text = entries.get(key);
      if (text === undefined) counts.misses++;
      else counts.hits++;
      return text;
    },
    write(key, text) {
      counts.writes++;
      entries.set(key, text);
    },
  };
  return { cache, entries, counts };
}

const FLOW = (n: number) =>
  `name: flow ${n}\nvars: {item: "${"${"}NAME:-tea}"}\nsteps:\n` +
  `  - name: login\n    request:\n      method: POST\n      url: "${"${"}ENV.BASE}/login"\n` +
  `      body: {username: demo, password: demo-password}\n    capture: {token: $.json.token}\n` +
  `    assert: {status: 200, json: [{path: $.json.user.id, equals: 1}]}\n`;

async function withDir(body: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir();
  try {
    await body(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

const normal = (value: unknown) => JSON.parse(JSON.stringify(value));

Deno.test("a cached flow loads back as it was checked, for every file that was kept", async () => {
  await withDir(async (dir) => {
    for (let n = 0; n < 5; n++) await Deno.writeTextFile(`${dir}/f${n}.yaml`, FLOW(n));
    const env = (name: string) => (name === "BASE" ? "http://x.test" : undefined);
    const { cache, counts } = memoryCache();
    const plain = await loadFlows([dir], { env });
    const first = await loadFlows([dir], { env, cache });
    assert.deepEqual(counts, { hits: 0, misses: 5, writes: 5 });
    const second = await loadFlows([dir], { env, cache });
    assert.deepEqual(counts, { hits: 5, misses: 5, writes: 5 });
    assert.deepEqual(second.problems, []);
    assert.deepEqual(normal(second.flows), normal(plain.flows));
    assert.deepEqual(normal(first.flows), normal(plain.flows));
    assert.deepEqual(second.files, plain.files);
  });
});

Deno.test("a cached flow is checked again when what its check depends on changed", async () => {
  await withDir(async (dir) => {
    const file = `${dir}/f.yaml`;
    await Deno.writeTextFile(file, FLOW(1).replace("NAME:-tea", "NAME"));
    const { cache, counts } = memoryCache();
    const set = (name: string) => (name === "BASE" ? "http://x.test" : undefined);
    const params = new Map([["NAME", "tea"]]);
    assert.deepEqual((await loadFlows([dir], { env: set, params, cache })).problems, []);
    assert.deepEqual((await loadFlows([dir], { env: set, params, cache })).problems, []);
    assert.equal(counts.hits, 1);
    // The environment variable is unset now: its problem is reported, not the kept flow.
    const unset = await loadFlows([dir], { env: () => undefined, params, cache });
    assert.deepEqual(unset.problems.map((p) => p.code), ["unset-env"]);
    // Without the run parameter, ${NAME} names nothing.
    const noParam = await loadFlows([dir], { env: set, cache });
    assert.deepEqual(noParam.problems.map((p) => p.code), ["unknown-name"]);
    // The file changed: its new mistake is reported.
    await Deno.writeTextFile(
      file,
      FLOW(1).replace("NAME:-tea", "NAME").replace("status", "statuz"),
    );
    const edited = await loadFlows([dir], { env: set, params, cache });
    assert.deepEqual(edited.problems.map((p) => p.code), ["unknown-key"]);
  });
});

Deno.test("only flows that read no other file and are plain JSON are kept; bad entries are misses", async () => {
  await withDir(async (dir) => {
    await Deno.writeTextFile(`${dir}/a.yaml`, FLOW(1));
    // A path json-p3 compiles is not plain JSON.
    await Deno.writeTextFile(
      `${dir}/b.yaml`,
      FLOW(2).replace("$.json.user.id, equals: 1", '"$.json.items[*].id", length: 0'),
    );
    // An include reads another file.
    await Deno.writeTextFile(
      `${dir}/c.yaml`,
      "name: c\nsteps:\n  - name: in\n    include: a.yaml\n",
    );
    const env = (name: string) => (name === "BASE" ? "http://x.test" : undefined);
    const { cache, entries, counts } = memoryCache();
    await loadFlows([dir], { env, cache });
    assert.equal(counts.writes, 1, "only a.yaml is kept");
    // A corrupt or foreign entry is a miss, and is written again.
    const [key] = entries.keys();
    for (
      const bad of [
        "{",
        "null",
        '{"input": 1}',
        JSON.stringify({ ...JSON.parse(entries.get(key)!), input: "x" }),
      ]
    ) {
      entries.set(key, bad);
      const again = await loadFlows([dir], { env, cache });
      assert.deepEqual(again.problems, []);
      assert.equal(again.flows.length, 3);
      assert.notEqual(entries.get(key), bad);
    }
  });
});

Deno.test("--cache-dir: the second run reads flows back, passes alike, and still masks secrets", async () => {
  const api = await startDemoApi();
  await withDir(async (dir) => {
    await Deno.mkdir(`${dir}/flows`);
    for (let n = 0; n < 3; n++) {
      await Deno.writeTextFile(
        `${dir}/flows/f${n}.yaml`,
        FLOW(n) +
          `  - name: me\n    request:\n      url: "${"${"}ENV.BASE}/echo/${"${"}ENV.API_TOKEN}"\n` +
          `    assert: {status: 200}\n`,
      );
    }
    const env = { BASE: api.url, API_TOKEN: "tok-cache-secret-1234" };
    const run = () =>
      runCli([
        "run",
        `${dir}/flows`,
        "--cache-dir",
        `${dir}/cache`,
        "--report-json",
        `${dir}/report.json`,
        "-v",
      ], { env });
    const first = await run();
    assert.equal(first.code, 0, first.stderr);
    const kept = [...Deno.readDirSync(`${dir}/cache`)].map((e) => e.name);
    assert.equal(kept.length, 3);
    const firstReport = await Deno.readTextFile(`${dir}/report.json`);
    const second = await run();
    assert.equal(second.code, 0, second.stderr);
    const secondReport = await Deno.readTextFile(`${dir}/report.json`);
    for (const text of [first.stdout, second.stdout, firstReport, secondReport]) {
      assert.ok(!text.includes("tok-cache-secret-1234"), "the secret was not masked");
    }
    const steps = (report: string) =>
      JSON.parse(report).flows.flatMap((f: { steps: { name: string; status: string }[] }) =>
        f.steps.map((s) => `${s.name}:${s.status}`)
      );
    assert.deepEqual(steps(secondReport), steps(firstReport));
    // Unset now: the run stops before sending anything, as without the cache.
    const unset = await runCli(["run", `${dir}/flows`, "--cache-dir", `${dir}/cache`], {
      env: { BASE: api.url },
    });
    assert.equal(unset.code, 2);
    assert.match(unset.stderr, /API_TOKEN/);
  });
  await api.close();
});

/**
 * Shards balanced by time: on a skewed suite the slowest and the fastest
 * shard end within 15 % of the mean (dealing by count leaves them far
 * apart); every file lands in exactly one shard; unknown files count as
 * average ones; the CLI reads earlier JSON reports and says what is wrong
 * with a bad one.
 */
import assert from "node:assert/strict";
import { durationsFromReports, selectShardByTime } from "../../lib/select/shard_time.ts";
import { selectShard } from "../../lib/select/shard.ts";
import { runCli } from "../support/cli.ts";

/** (slowest − fastest) / mean of the shards' total times. */
function spread(loads: number[]): number {
  const mean = loads.reduce((a, b) => a + b, 0) / loads.length;
  return (Math.max(...loads) - Math.min(...loads)) / mean;
}

/** A deterministic pseudo-random sequence (a seeded LCG), so a failure can be replayed. */
function random(seed: number): () => number {
  let x = seed;
  return () => (x = (x * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
}

Deno.test("on skewed suites, shards by time end within 15 % of each other; by count they do not", () => {
  const report: string[] = [];
  for (let seed = 1; seed <= 20; seed++) {
    const next = random(seed);
    // 200 files: most take 50–150 ms, one in ten is 10–30 times slower, in path order clusters.
    const files = Array.from({ length: 200 }, (_, i) => {
      const key = `flows/${String(i).padStart(3, "0")}.yaml`;
      const slow = i % 10 === 0 || (i > 100 && i < 110);
      const ms = slow ? 1000 + next() * 2000 : 50 + next() * 100;
      return { file: key, key, ms };
    });
    const times = new Map(files.map((f) => [f.file, f.ms]));
    for (const total of [2, 4, 8]) {
      const byTime: number[] = [];
      const byCount: number[] = [];
      const seen = new Set<string>();
      for (let index = 1; index <= total; index++) {
        const part = selectShardByTime(files, { index, total }, times);
        for (const f of part) {
          assert.ok(!seen.has(f.key), `${f.key} in two shards`);
          seen.add(f.key);
        }
        byTime.push(part.reduce((a, f) => a + f.ms, 0));
        byCount.push(selectShard(files, { index, total }).reduce((a, f) => a + f.ms, 0));
      }
      assert.equal(seen.size, files.length, "every file in exactly one shard");
      assert.ok(spread(byTime) <= 0.15, `seed ${seed}, ${total} shards: ${spread(byTime)}`);
      if (seed === 1) {
        report.push(
          `${total} shards: by time ${(spread(byTime) * 100).toFixed(1)} %, by count ${
            (spread(byCount) * 100).toFixed(1)
          } %`,
        );
        if (total === 8) assert.ok(spread(byCount) > 0.3, "the suite is skewed enough to matter");
      }
    }
  }
  // The spread between the slowest and the fastest shard, for the record (seed 1).
  console.log(report.join("\n"));
});

Deno.test("files the reports do not know count as average ones; data rows add up; paths match by tail", () => {
  const times = durationsFromReports([
    { flows: [{ file: "/ci/a/flows/big.yaml", duration_ms: 900 }] },
    {
      flows: [
        { file: "flows/rows.yaml", duration_ms: 100 },
        { file: "flows/rows.yaml", duration_ms: 200 },
        { file: "flows/bad.yaml", duration_ms: "x" },
      ],
    },
    { not: "a report" },
  ]);
  assert.deepEqual([...times], [["/ci/a/flows/big.yaml", 900], ["flows/rows.yaml", 300]]);
  const files = ["big.yaml", "rows.yaml", "new1.yaml", "new2.yaml"].map((k) => ({
    file: `here/flows/${k}`,
    key: k,
  }));
  // big (900) alone; rows (300) and two unknowns (600 each, the average) share the other shard.
  const one = selectShardByTime(files, { index: 1, total: 2 }, times).map((f) => f.key);
  const two = selectShardByTime(files, { index: 2, total: 2 }, times).map((f) => f.key);
  assert.deepEqual(one, ["big.yaml", "rows.yaml"]);
  assert.deepEqual(two, ["new1.yaml", "new2.yaml"]);
});

Deno.test("--shard-timings: the CLI splits by an earlier report's times, and rejects what it cannot use", async () => {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const ms = Number(new URL(req.url).searchParams.get("ms"));
    await new Promise((r) => setTimeout(r, ms));
    return new Response("ok");
  });
  const url = `http://127.0.0.1:${server.addr.port}`;
  const dir = await Deno.makeTempDir({ prefix: "flowrun-shard-time-" });
  try {
    // The slow files are every third: dealt by count (round robin) they would all land in shard 1.
    for (let i = 0; i < 12; i++) {
      const ms = i % 3 === 0 && i < 9 ? 300 : 20;
      await Deno.writeTextFile(
        `${dir}/f${String(i).padStart(2, "0")}.yaml`,
        `name: f${i}\nsteps:\n  - name: get\n    request: {url: "${url}/?ms=${ms}"}\n`,
      );
    }
    const first = await runCli(["run", dir, "--report-json", `${dir}/r.json`, "--jobs", "4"]);
    assert.equal(first.code, 0, first.stdout);
    const report = JSON.parse(await Deno.readTextFile(`${dir}/r.json`));
    const times = new Map<string, number>(
      report.flows.map((f: { file: string; duration_ms: number }) => [f.file, f.duration_ms]),
    );
    const loads: number[] = [];
    const all: string[] = [];
    for (let i = 1; i <= 3; i++) {
      const list = await runCli([
        "run",
        dir,
        "--shard",
        `${i}/3`,
        "--shard-timings",
        `${dir}/r.json`,
        "--list",
      ]);
      assert.equal(list.code, 0, list.stderr);
      const files = list.stdout.trim().split("\n");
      all.push(...files);
      loads.push(files.reduce((a, f) => a + times.get(f)!, 0));
    }
    assert.deepEqual(all.sort(), [...times.keys()].sort(), "every file once");
    // Dealt longest first to the least loaded shard, no two shards differ by more than the
    // longest file (measured times vary on a busy machine; the 15 % case is the test above).
    const longest = Math.max(...times.values());
    assert.ok(
      Math.max(...loads) - Math.min(...loads) <= longest,
      `loads ${loads} differ by more than ${longest}`,
    );

    const alone = await runCli(["run", dir, "--shard-timings", `${dir}/r.json`]);
    assert.equal(alone.code, 2);
    assert.match(
      alone.stderr,
      /error\[bad-shard-timings\]: --shard-timings balances a sharded run/,
    );
    const missing = await runCli([
      "run",
      dir,
      "--shard",
      "1/2",
      "--shard-timings",
      `${dir}/no.json`,
    ]);
    assert.equal(missing.code, 2);
    assert.match(
      missing.stderr,
      /error\[bad-shard-timings\]: Cannot use --shard-timings ".*no\.json"/,
    );
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});

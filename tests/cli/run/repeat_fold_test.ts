/**
 * The parts of `--repeat` below the CLI: the runner keeps no result of a
 * folded iteration (counted: the results it returns), the percentiles are
 * exact (against a plain sort), and an iteration's events reach the
 * reporters whole and in order, or not at all.
 */
import assert from "node:assert/strict";
import { loadFlow } from "../../../lib/load/load_flow.ts";
import type { Reporter } from "../../../lib/model/events.ts";
import type { FlowResult } from "../../../lib/model/result.ts";
import { Durations } from "../../../lib/report/latency.ts";
import { foldRepeats } from "../../../lib/report/repeat_fold.ts";
import { runFlows } from "../../../lib/run/flows.ts";
import { repeatFlows } from "../../../lib/run/repeat.ts";
import { expandRows } from "../../../lib/run/prepare.ts";

/** Runs `body` with a server on 127.0.0.1 that answers 500 to every `failEvery`-th request. */
async function withServer(failEvery: number, body: (url: string) => Promise<void>) {
  let n = 0;
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    () => new Response("{}", { status: ++n % failEvery === 0 ? 500 : 200 }),
  );
  try {
    await body(`http://127.0.0.1:${server.addr.port}`);
  } finally {
    await server.shutdown();
  }
}

function pingFlow(url: string) {
  const text =
    `name: ping\nsteps:\n  - name: get\n    request: {url: "${url}/"}\n    assert: {status: 200}\n`;
  return loadFlow(text, "ping.yaml").flow!;
}

Deno.test("the runner keeps no result of a folded iteration: counted with and without the fold", async () => {
  await withServer(100, async (url) => {
    const N = 1500;
    const plain = await runFlows(repeatFlows([pingFlow(url)], N), {
      runId: "r",
      jobs: 4,
      compact: true,
    });
    assert.equal(plain.flows.length, N, "without the fold, every iteration's result is kept");

    const fold = foldRepeats({}, { repeat: N, concurrency: 4 });
    const ran = await runFlows(repeatFlows([pingFlow(url)], N), {
      runId: "r",
      jobs: 4,
      compact: true,
      release: true,
      reporter: fold.reporter,
      unlisted: fold.unlisted,
    });
    // The first iteration and the 15 that failed (every 100th request of 3000): nothing else.
    assert.equal(ran.flows.length, 1 + 15);
    assert.ok(ran.flows.every((f) => f.name === "ping [1/1500]" || f.status === "failed"));
    const folded = fold.fold(ran);
    assert.deepEqual(folded.latency!.iterations, {
      total: N,
      passed: N - 15,
      failed: 15,
      not_run: 0,
      listed: 16,
    });
    assert.equal(folded.latency!.overall.requests, N);
    assert.deepEqual(folded.latency!.overall.errors, { status: 15 });
    assert.equal(folded.totals.flows.total, 16);
  });
});

Deno.test("percentiles are the nearest-rank values of a plain sort", () => {
  let seed = 7;
  const random = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
  for (const n of [1, 2, 3, 10, 99, 100, 101, 1000, 4321]) {
    const values = Array.from({ length: n }, () => Math.round(random() * 100000) / 100);
    const durations = new Durations();
    for (const v of values) durations.add(v);
    const sorted = [...values].sort((a, b) => a - b);
    const rank = (p: number) => sorted[Math.ceil((p / 100) * n) - 1];
    const stats = durations.stats({});
    assert.deepEqual(
      [stats.requests, stats.p50_ms, stats.p95_ms, stats.p99_ms, stats.max_ms],
      [n, rank(50), rank(95), rank(99), sorted[n - 1]],
      `n = ${n}`,
    );
  }
  assert.deepEqual(new Durations().stats({}), {
    requests: 0,
    p50_ms: 0,
    p95_ms: 0,
    p99_ms: 0,
    max_ms: 0,
    errors: {},
  });
});

Deno.test("a listed iteration's events reach the reporters whole and in order; a folded one's none", async () => {
  const seen: string[] = [];
  const inner: Reporter = {
    onFlowStart: (f) => void seen.push(`start ${f.name}`),
    onStepEnd: (f, s) => void seen.push(`step ${f.name} ${s.name}`),
    onFlowEnd: (f) => void seen.push(`end ${f.name}`),
  };
  const fold = foldRepeats(inner, { repeat: 3, concurrency: 2 });
  const ref = (i: number) => ({ file: "a.yaml", name: `a [${i}/3]` });
  const step = { name: "s", status: "passed" } as never;
  const end = (i: number, status: FlowResult["status"]) =>
    fold.reporter.onFlowEnd?.({ ...ref(i), status, started_at: "", duration_ms: 1, steps: [] });
  await fold.reporter.onFlowStart?.(ref(1));
  await fold.reporter.onFlowStart?.(ref(2));
  await fold.reporter.onFlowStart?.(ref(3));
  await fold.reporter.onStepEnd?.(ref(3), step);
  await fold.reporter.onStepEnd?.(ref(2), step);
  await fold.reporter.onStepEnd?.(ref(1), step);
  await end(2, "passed");
  await end(3, "failed");
  await end(1, "passed");
  assert.deepEqual(seen, [
    // The first iteration's events go straight through, as they come.
    "start a [1/3]",
    "step a [1/3] s",
    // The second passed: folded, none of its events seen. The third failed: its events, its end.
    "start a [3/3]",
    "step a [3/3] s",
    "end a [3/3]",
    "end a [1/3]",
  ]);
});

Deno.test("iterations share their flow's steps under their own names; a data-driven flow's rows expand in each", () => {
  const plain = pingFlow("http://127.0.0.1:9");
  const rows = {
    ...plain,
    name: "rows",
    rows: [{ name: "a", values: {} }, { name: "b", values: {} }],
  };
  const list = repeatFlows([plain, rows], 2);
  assert.deepEqual(list.map((f) => f.name), [
    "ping [1/2]",
    "rows [1/2]",
    "ping [2/2]",
    "rows [2/2]",
  ]);
  const [first, , second] = list as typeof plain[];
  assert.equal(first.steps, plain.steps);
  assert.equal(second.file, "ping.yaml");
  assert.equal(plain.name, "ping", "the flow itself keeps its name");
  assert.deepEqual(expandRows(list).map((f) => f.name), [
    "ping [1/2]",
    "rows [1/2] [a]",
    "rows [1/2] [b]",
    "ping [2/2]",
    "rows [2/2] [a]",
    "rows [2/2] [b]",
  ]);
});

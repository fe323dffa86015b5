/**
 * Red-team of `--workers`: `--fail-fast` stops every thread as soon as a
 * failure is known, however far main's reporters lag behind the workers:
 * no flow starts once a flow has failed (a worker's next flow included), as
 * on one thread.
 */
import assert from "node:assert/strict";
import { loadFlows } from "../../lib/load/suite.ts";
import { runFlows } from "../../lib/run/flows.ts";
import { notingServer, sleep, suite } from "../support/workers.ts";

Deno.test("--fail-fast over three threads starts no flow once one failed, while main's reporters lag", async () => {
  const api = notingServer(async ({ query }) => {
    await sleep(Number(query.get("ms") ?? 0));
    return Response.json({}, { status: query.get("n") === "1" ? 500 : 200 });
  });
  // By place: main runs 0, the first worker 1 (which fails) then 2, the second 3 then 4.
  const ms = [100, 0, 0, 600, 0, 0, 0, 0, 0];
  const files: Record<string, string> = {};
  ms.forEach((wait, n) => {
    files[`flows/f${n}.yaml`] = `name: f${n}
steps:
  - name: get
    request: {url: "${api.base}/x?n=${n}&ms=${wait}"}
    assert: {status: 200}
`;
  });
  const dir = await suite(files);
  const failedFlowReported = Promise.withResolvers<void>();
  try {
    const loaded = await loadFlows([`${dir}/flows`], { setupFiles: [] });
    const result = await runFlows(loaded.flows, {
      jobs: 3,
      failFast: true,
      workers: { count: 3, checkSetup: true },
      reporter: {
        // Main's reporters are busy with the first worker's events for a while.
        onFlowStart: async (flow) => {
          if (flow.name === "f1") await Promise.race([failedFlowReported.promise, sleep(1500)]);
        },
      },
    });
    failedFlowReported.resolve();
    const failed = api.seen.find((s) => s.query.get("n") === "1")!;
    // Late: sent well after the failing answer. A flow a thread starts while the failing one's
    // answer is still being checked starts as it would on one thread with --jobs; a loaded CI
    // machine took more than 50 ms for that. f4 (after f3's 600 ms) and main's next flows would
    // come hundreds of milliseconds after it.
    const late = api.seen.filter((s) => s.start > failed.end + 300).map((s) => s.query.get("n"));
    assert.deepEqual(late, []);
    assert.equal(result.totals.flows.failed, 1);
    assert.match(JSON.stringify(result.flows[4]), /--fail-fast stopped the run after/);
  } finally {
    failedFlowReported.resolve();
    await api.stop();
    await Deno.remove(dir, { recursive: true });
  }
});

/**
 * Red-team of `--workers`: `--fail-fast` stops every thread as soon as a
 * failure is known, however far main's reporters lag behind the workers:
 * no flow starts once a flow has failed (a worker's next flow included), as
 * on one thread.
 *
 * The order is a handshake, not a race of delays a loaded machine outruns:
 * the server answers every flow but the failing one only after the failing
 * one's answer went out, so each thread's first flow (`--jobs 3` over three
 * threads: one at a time each) is all that may ever be sent.
 */
import assert from "node:assert/strict";
import { loadFlows } from "../../lib/load/suite.ts";
import { runFlows } from "../../lib/run/flows.ts";
import { notingServer, sleep, suite } from "../support/workers.ts";

Deno.test("--fail-fast over three threads starts no flow once one failed, while main's reporters lag", async () => {
  const failedSent = Promise.withResolvers<void>();
  const api = notingServer(async ({ query }) => {
    if (query.get("n") === "1") {
      queueMicrotask(failedSent.resolve);
      return Response.json({}, { status: 500 });
    }
    // Held until the failure is out (bounded), then long enough for its thread to take the
    // answer in on a loaded machine (CI once needed more than 200 ms): every thread's next
    // flow would start while the failure is known, and main's reporters still lag.
    await Promise.race([failedSent.promise, sleep(20_000)]);
    await sleep(1500);
    return Response.json({});
  });
  const files: Record<string, string> = {};
  for (let n = 0; n < 9; n++) {
    files[`flows/f${n}.yaml`] = `name: f${n}
steps:
  - name: get
    request: {url: "${api.base}/x?n=${n}"}
    assert: {status: 200}
`;
  }
  const dir = await suite(files);
  const failedFlowReported = Promise.withResolvers<void>();
  try {
    const loaded = await loadFlows([`${dir}/flows`], { setupFiles: [] });
    const result = await runFlows(loaded.flows, {
      jobs: 3,
      failFast: true,
      workers: { count: 3, checkSetup: true },
      reporter: {
        // Main's reporters are busy with the failing flow's events for a while.
        onFlowStart: async (flow) => {
          if (flow.name === "f1") await Promise.race([failedFlowReported.promise, sleep(3500)]);
        },
      },
    });
    failedFlowReported.resolve();
    // Only each thread's first flow was sent: a second one would have started once the
    // failure was known (every answer waited for it).
    const sent = api.seen.map((s) => Number(s.query.get("n"))).sort();
    assert.ok(sent.includes(1), JSON.stringify(sent));
    assert.ok(sent.length <= 3, `a flow started after the failure: ${JSON.stringify(sent)}`);
    assert.equal(result.totals.flows.failed, 1);
    // Every flow never sent is reported stopped by --fail-fast, whichever thread held it.
    for (let n = 0; n < 9; n++) {
      if (sent.includes(n)) continue;
      assert.match(JSON.stringify(result.flows[n]), /--fail-fast stopped the run after/, `f${n}`);
    }
  } finally {
    failedFlowReported.resolve();
    failedSent.resolve();
    await api.stop();
    await Deno.remove(dir, { recursive: true });
  }
});

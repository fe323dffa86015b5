/**
 * Red-team of `--workers`: `--fail-fast` stops every thread as soon as a
 * failure is known, however far main's reporters lag behind the workers:
 * no flow starts once a flow has failed (a worker's next flow included), as
 * on one thread.
 *
 * The order is a handshake, not a race of delays a loaded machine outruns:
 * the server answers every flow but the failing one only once the failing
 * one's thread has noted the failure in the run's shared flag (read here
 * through the flag main creates), so each thread's first flow (`--jobs 3` over
 * three threads: one at a time each) is all that may ever be sent. A fixed
 * delay after the failing answer went out (1.5 s) was outrun at a load of 30.
 */
import assert from "node:assert/strict";
import { loadFlows } from "../../lib/load/suite.ts";
import { runFlows } from "../../lib/run/flows.ts";
import { SharedFailFast } from "../../lib/run/workers/fail_fast.ts";
import { notingServer, sleep, suite } from "../support/workers.ts";

Deno.test("--fail-fast over three threads starts no flow once one failed, while main's reporters lag", async () => {
  // The flag the pool creates, watched as the threads see it.
  const create = SharedFailFast.create;
  let flag: SharedFailFast | undefined;
  SharedFailFast.create = (threads) => flag = create.call(SharedFailFast, threads);
  const api = notingServer(async ({ query }) => {
    if (query.get("n") === "1") return Response.json({}, { status: 500 });
    // Held until the failing flow's thread noted the failure (polled, at most 60 s): every
    // thread's next flow would then start while the failure is known, and main's reporters
    // still lag.
    for (let i = 0; i < 6_000 && flag?.failedFlow === undefined; i++) await sleep(10);
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
    SharedFailFast.create = create;
    failedFlowReported.resolve();
    await api.stop();
    await Deno.remove(dir, { recursive: true });
  }
});

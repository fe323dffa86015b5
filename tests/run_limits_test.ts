/**
 * Memory stays flat however many steps fail: the details a failed step keeps
 * are bounded, generously for the first failures of a run and tightly after.
 */
import assert from "node:assert/strict";
import { loadFlow } from "../lib/load.ts";
import { runFlows } from "../lib/run.ts";

Deno.test("failed steps keep 64 KiB bodies for the first 100, then 2 KiB", async () => {
  const page = `<html>${"e".repeat(70 * 1024)}</html>`;
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    () => new Response(page, { status: 500, headers: { "content-type": "text/html" } }),
  );
  try {
    const flows = Array.from({ length: 130 }, (_, i) =>
      loadFlow(
        `name: f${i}\nsteps:\n  - name: s\n    request: {url: "http://127.0.0.1:${server.addr.port}/"}\n    assert: {status: 200}\n`,
        `f${String(i).padStart(3, "0")}.yaml`,
      ).flow!);
    const result = await runFlows(flows, { jobs: 4, runId: "limits" });
    const bodies = result.flows.map((f) => f.steps[0].response!.body!.length);
    assert.equal(bodies.filter((n) => n === 64 * 1024).length, 100);
    assert.equal(bodies.filter((n) => n === 2 * 1024).length, 30);
    for (const flow of result.flows) {
      const response = flow.steps[0].response!;
      assert.equal(response.body!.length + response.body_truncated!, page.length);
      assert.ok(response.body_excerpt!.length < 400);
    }
  } finally {
    await server.shutdown();
  }
});

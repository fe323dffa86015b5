/**
 * Memory stays flat however many steps fail: the details a failed step keeps
 * are bounded, generously for the first failures of a run and tightly after.
 */
import assert from "node:assert/strict";
import { TIMING } from "../support/timing.ts";
import { loadFlow } from "../../lib/load/load_flow.ts";
import { runFlows } from "../../lib/run/flows.ts";
import "../support/engines.ts";

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

Deno.test(`a hostile deep document fails only its checks, quickly, with plain words ${TIMING}`, async () => {
  let deep = '{"id":1}';
  for (let i = 0; i < 100_000; i++) deep = `{"a":${deep}}`;
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    () => new Response(deep, { headers: { "content-type": "application/json" } }),
  );
  const url = `http://127.0.0.1:${server.addr.port}/`;
  try {
    const { flow } = loadFlow(
      `name: deep
steps:
  - name: checks
    request: {url: "${url}"}
    assert:
      json:
        - {path: "$.json..a", length: 3}
        - {path: "$.json..id", contains: 1}
        - {path: "$.json[?@..id]", exists: false}
`,
      "deep.yaml",
    );
    const started = performance.now();
    const result = await runFlows([flow!], { runId: "deep" });
    assert.ok(performance.now() - started < 10_000, "bounded in time");
    const [checks] = result.flows[0].steps;
    assert.deepEqual(
      checks.assertions.map((a) => a.passed),
      [false, true, false],
      JSON.stringify(checks.assertions.map((a) => a.message)),
    );
    assert.match(checks.assertions[0].message, /expected length 3, got 100000/);
    assert.match(checks.assertions[2].message, /nested deeper than 256 levels/);
    assert.ok(JSON.stringify(checks).length < 100_000, "the result stays small");
    const capturing = loadFlow(
      `name: capture\nsteps:\n  - name: c\n    request: {url: "${url}"}\n    capture: {x: "$.json[?@..id]"}\n`,
      "capture.yaml",
    ).flow!;
    const [captured] = (await runFlows([capturing], { runId: "deep" })).flows[0].steps;
    assert.equal(captured.failure_kind, "capture");
    assert.match(
      captured.message!,
      /^capture "x": \$\.json\[\?@\.\.id\]: the response is nested deeper/,
    );
  } finally {
    await server.shutdown();
  }
});

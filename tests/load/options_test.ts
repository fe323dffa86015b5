/** A step's or flow's `options` (lib/load/options.ts); the run side is step_options_test.ts. */
import assert from "node:assert/strict";
import { loadFlow } from "../../lib/load/load_flow.ts";
import { codesOf, loadStepFlow, stepOf } from "../support/step_flow.ts";

Deno.test("durations and switches", () => {
  const options =
    stepOf(["options: {timeout: 2s, delay: 0, follow_redirects: true, insecure: false}"])
      .options;
  assert.deepEqual(options, {
    timeoutMs: 2000,
    followRedirects: true,
    delayMs: 0,
    insecure: false,
  });
  const flow = loadFlow(
    "name: f\noptions: {cookie_jar: true}\nsteps:\n  - name: s\n    request: {url: http://x.test}\n",
    "t.yaml",
  ).flow;
  assert.equal(flow?.options?.cookieJar, true);
});

Deno.test("a switch that is not a boolean gets its own hint; an unknown option its spelling", () => {
  const [p] = loadStepFlow(["options: {cookie_jar: yes please}"]).problems;
  assert.equal(p.hint, "Write cookie_jar: true to keep cookies between the flow's requests.");
  const [t] = loadStepFlow(["options: {timeout_ms: 100}"]).problems;
  assert.equal(t.hint, 'Did you mean "timeout"? It takes a duration: timeout: 5s.');
  assert.deepEqual(codesOf(["options: {timeout: 0}"]), ["out-of-range"]);
});

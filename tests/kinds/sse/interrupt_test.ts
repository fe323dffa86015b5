/**
 * Ctrl-C during an `sse:` step that reads a stream which never ends: the
 * stream is closed at once, the run exits 130 and writes its reports, the
 * step shown as interrupted.
 */
import assert from "node:assert/strict";
import { runBounded } from "../../support/cli.ts";
import { startSseServer } from "./server.ts";

Deno.test("SIGINT mid-stream ends the sse step at once; exit 130 with every report written", async () => {
  const server = startSseServer();
  const dir = await Deno.makeTempDir({ prefix: "flowrun-sse-int-" });
  try {
    await Deno.writeTextFile(
      `${dir}/flow.yaml`,
      `name: forever
steps:
  - name: listen
    sse: {url: "\${ENV.BASE}/forever", count: 100000, wait: 10m}
    options: {timeout: 10m}
`,
    );
    const run = await runBounded(["run", `${dir}/flow.yaml`, "--out-dir", `${dir}/out`], {
      env: { BASE: server.url },
      interruptOn: server.streaming,
      // Far below the step's 10 minutes: only an interrupt that works ends the run in time.
      ms: 60_000,
    });
    assert.equal(run.killed, false, "the run ended on its own after SIGINT");
    assert.equal(run.code, 130, run.stdout + run.stderr);
    const report = JSON.parse(await Deno.readTextFile(`${dir}/out/report.json`));
    const step = report.flows[0].steps[0];
    // As for an HTTP step caught by the interrupt: not run to its end, counted as not run.
    assert.equal(step.failure_kind, "interrupted", JSON.stringify(step));
    assert.equal(step.message, "Interrupted (SIGINT) before the step finished.");
    for (const name of ["junit.xml", "report.html", "run.log.ndjson"]) {
      assert.ok((await Deno.stat(`${dir}/out/${name}`)).size > 0, name);
    }
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});

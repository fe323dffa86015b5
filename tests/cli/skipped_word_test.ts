/**
 * One word for a flow that never started: the flow line says "skipped", as
 * the summary does (issue 40, item 8a).
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";

Deno.test("after a failed setup the flow line and the summary both say skipped", async () => {
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    () => Response.json({ error: "down" }, { status: 500 }),
  );
  const url = `http://127.0.0.1:${server.addr.port}`;
  const dir = await Deno.makeTempDir({ prefix: "flowrun-skipped-" });
  try {
    await Deno.writeTextFile(
      `${dir}/setup.yaml`,
      `name: log in\nsteps:\n  - name: login\n    request: {url: "${url}/login"}\n    assert: {status: 200}\n`,
    );
    await Deno.writeTextFile(
      `${dir}/f.yaml`,
      `name: a flow\nsteps:\n  - name: get\n    request: {url: "${url}/x"}\n`,
    );
    const run = await runCli(["run", `${dir}/f.yaml`, "--setup", `${dir}/setup.yaml`], {
      env: { NO_COLOR: "1" },
    });
    assert.equal(run.code, 1, run.stdout + run.stderr);
    const out = run.stdout + run.stderr;
    assert.match(out, /f\.yaml · a flow skipped: setup flow "log in" did not pass\n/);
    assert.match(out, /1 skipped/);
    assert.doesNotMatch(out, /not run/i);
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});

/**
 * With `--jobs`, flows print as they end, and the recap, the summary and
 * every report are in path order (issue 40, item 8b: docs/cli.md says so).
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";

Deno.test("--jobs 2: blocks in finishing order, recap and reports in path order", async () => {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    // The first flow by path is the slow one, so it ends last.
    if (new URL(req.url).pathname === "/slow") await new Promise((r) => setTimeout(r, 700));
    return Response.json({ ok: false });
  });
  const url = `http://127.0.0.1:${server.addr.port}`;
  const dir = await Deno.makeTempDir({ prefix: "flowrun-order-" });
  try {
    for (const [file, path] of [["a_slow", "slow"], ["b_fast", "fast"]]) {
      await Deno.writeTextFile(
        `${dir}/${file}.yaml`,
        `name: ${file}\nsteps:\n  - name: get\n    request: {url: "${url}/${path}"}\n    assert: {status: 201}\n`,
      );
    }
    const run = await runCli(
      ["run", dir, "--jobs", "2", "--report-json", `${dir}/r.json`],
      { env: { NO_COLOR: "1" } },
    );
    assert.equal(run.code, 1, run.stdout + run.stderr);
    const out = run.stdout;
    const blockA = out.indexOf("a_slow.yaml · a_slow");
    const blockB = out.indexOf("b_fast.yaml · b_fast");
    assert.ok(blockB >= 0 && blockA > blockB, `finishing order:\n${out}`);
    // The recap after the blocks: one line per failed flow, in path order.
    const recap = out.slice(out.indexOf("\nFailures:\n"));
    assert.ok(out.indexOf("\nFailures:\n") > blockA, `a recap after the blocks:\n${out}`);
    const recapA = recap.indexOf("a_slow.yaml");
    const recapB = recap.indexOf("b_fast.yaml");
    assert.ok(recapA >= 0 && recapB > recapA, `recap in path order:\n${out}`);
    const report = JSON.parse(await Deno.readTextFile(`${dir}/r.json`));
    assert.deepEqual(report.flows.map((f: { name: string }) => f.name), ["a_slow", "b_fast"]);
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});

/**
 * `run` in this process: the plan is executed stage by stage, and whatever
 * happens the requested artifacts say how the run went.
 */
import assert from "node:assert/strict";
import { run } from "../../../cli/run/mod.ts";
import { UsageError } from "../../../lib/model/errors.ts";
import { withFiles } from "../../support/with_files.ts";

const flow = (url: string, status = 200) =>
  `name: health\nsteps:\n  - name: ping\n    request: {url: "${url}/health"}\n    assert: {status: ${status}}\n`;

Deno.test("a usage error is thrown before anything is read; --help is exit 0", async () => {
  await assert.rejects(
    run([]),
    (error) => error instanceof UsageError && error.code === "no-paths",
  );
  await assert.rejects(
    run(["missing.yaml", "--jobs", "0"]),
    (error) => error instanceof UsageError && error.code === "bad-jobs",
  );
  assert.equal(await run(["--help"]), 0);
});

Deno.test("a run executes the plan: exit 0 or 1, with its report and manifest", async () => {
  const server = Deno.serve({ port: 0, onListen: () => {} }, () => new Response("ok"));
  const url = `http://127.0.0.1:${server.addr.port}`;
  try {
    await withFiles({ "ok.yaml": flow(url), "bad.yaml": flow(url, 201) }, async (dir) => {
      const ok = await run([`${dir}/ok.yaml`, "--out-dir", `${dir}/out`, "--run-id", "r1"]);
      assert.equal(ok, 0);
      const report = JSON.parse(await Deno.readTextFile(`${dir}/out/report.json`));
      assert.equal(report.run_id, "r1");
      assert.equal(report.status, "passed");
      const manifest = JSON.parse(await Deno.readTextFile(`${dir}/out/manifest.json`));
      assert.equal(manifest.exit_code, 0);
      assert.deepEqual(manifest.command.slice(0, 3), ["flowrun", "run", `${dir}/ok.yaml`]);

      const failed = await run([`${dir}/bad.yaml`, "--report-json", `${dir}/bad.json`]);
      assert.equal(failed, 1);
      assert.equal(JSON.parse(await Deno.readTextFile(`${dir}/bad.json`)).status, "failed");
    });
  } finally {
    await server.shutdown();
  }
});

Deno.test("nothing runs when a flow has problems or a filter selects nothing: exit 2, reports still written", async () => {
  await withFiles(
    { "broken.yaml": "name: x\nsteps: 3\n", "ok.yaml": flow("http://127.0.0.1:9") },
    async (dir) => {
      assert.equal(await run([`${dir}/broken.yaml`, "--report-json", `${dir}/r.json`]), 2);
      const report = JSON.parse(await Deno.readTextFile(`${dir}/r.json`));
      assert.ok(report.problems.length > 0, JSON.stringify(report));
      assert.equal(
        await run([`${dir}/ok.yaml`, "--filter", "nomatch", "--report-json", `${dir}/f.json`]),
        2,
      );
      const filtered = JSON.parse(await Deno.readTextFile(`${dir}/f.json`));
      assert.equal(filtered.problems[0].code, "no-match");
    },
  );
});

Deno.test("--list loads and lists, and sends nothing", async () => {
  await withFiles({ "a.yaml": flow("http://127.0.0.1:9") }, async (dir) => {
    assert.equal(await run([dir, "--list", "--report-json", `${dir}/never.json`]), 0);
    await assert.rejects(Deno.stat(`${dir}/never.json`), Deno.errors.NotFound);
  });
});

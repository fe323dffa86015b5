/**
 * docs/sse.md's recipe (tests/fixtures/sse/progress.yaml, which the doc
 * includes byte for byte) runs green against a real SSE server, as the
 * doc says: the result captured from the last event reaches the next
 * request, and the token sent in `authorization` is masked in the output.
 */
import assert from "node:assert/strict";
import { runCli } from "../../support/cli.ts";
import { startSseServer } from "./server.ts";

const TOKEN = "tok-9a8b7c6d5e4f";

Deno.test("the sse recipe runs green, its capture sent on, its token masked", async () => {
  const server = startSseServer();
  const dir = await Deno.makeTempDir({ prefix: "flowrun-sse-recipe-" });
  try {
    const run = await runCli(
      ["run", "tests/fixtures/sse/progress.yaml", "--report-json", `${dir}/r.json`, "-v"],
      { env: { BASE_URL: server.url, TOKEN } },
    );
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.match(run.stdout, /1 flow: 1 passed · 3 steps: 3 passed/);
    const sse = server.seen.find((s) => s.path === "/jobs/job-7/events")!;
    assert.equal(sse.headers.authorization, `Bearer ${TOKEN}`);
    assert.equal(server.seen.find((s) => s.path === "/use")?.search, "?result=r-42");
    const report = await Deno.readTextFile(`${dir}/r.json`);
    assert.ok(
      !report.includes(TOKEN) && !run.stdout.includes(TOKEN) && !run.stderr.includes(TOKEN),
    );
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("sse steps run in worker threads too (--workers 2, two flows at once)", async () => {
  const server = startSseServer();
  const dir = await Deno.makeTempDir({ prefix: "flowrun-sse-workers-" });
  try {
    const recipe = await Deno.readTextFile("tests/fixtures/sse/progress.yaml");
    await Deno.writeTextFile(`${dir}/a.yaml`, recipe);
    await Deno.writeTextFile(`${dir}/b.yaml`, recipe.replace("name: job progress", "name: again"));
    const run = await runCli(["run", dir, "--workers", "2", "--jobs", "2"], {
      env: { BASE_URL: server.url, TOKEN },
    });
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.match(run.stdout, /2 flows: 2 passed · 6 steps: 6 passed/);
    assert.equal(server.seen.filter((s) => s.path === "/use").length, 2);
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});

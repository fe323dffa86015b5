/**
 * `--workers` through the CLI, under a signal: SIGINT while flows run on two
 * worker threads ends the run with exit code 130, the running flows'
 * cleanup steps sent, the flows not started reported as interrupted, and
 * every artifact complete; `--fail-fast` stops handing out flows on every
 * worker; a bad `--workers` is a usage error.
 */
import assert from "node:assert/strict";
import { XMLValidator } from "fast-xml-parser";
import { runCli, spawnCli } from "../support/cli.ts";
import { notingServer, sleep, suite } from "../support/workers.ts";

/** `count` flows: a slow request, then a cleanup step that runs whatever happened. */
function slowFlows(base: string, count: number, slowMs: number): Record<string, string> {
  const files: Record<string, string> = {};
  for (let i = 0; i < count; i++) {
    const n = String(i).padStart(3, "0");
    files[`flows/f${n}.yaml`] = `name: flow ${n}
steps:
  - name: slow
    request: {url: "${base}/slow?f=${n}&ms=${slowMs}"}
    assert: {status: 200}
  - name: cleanup
    always: true
    request: {url: "${base}/cleanup?f=${n}"}
`;
  }
  return files;
}

function slowServer() {
  return notingServer(async ({ path, query }) => {
    if (path === "/slow") await sleep(Number(query.get("ms")));
    return Response.json({ ok: true });
  });
}

Deno.test("SIGINT with two workers: exit 130, cleanup sent, every artifact complete", async () => {
  const api = slowServer();
  const dir = await suite(slowFlows(api.base, 60, 1500));
  try {
    const child = spawnCli(
      ["run", "flows", "--workers", "2", "--jobs", "4", "--out-dir", "out"],
      { cwd: dir, stdout: "null" },
    );
    // Four flows in flight: two on the main thread, two on the worker.
    for (let i = 0; i < 1000 && api.seen.length < 4; i++) await sleep(10);
    assert.equal(api.seen.length, 4);
    child.kill("SIGINT");
    const { code, stderr } = await child.output();
    assert.equal(code, 130, new TextDecoder().decode(stderr));
    const report = JSON.parse(await Deno.readTextFile(`${dir}/out/report.json`));
    assert.equal(report.interrupted, "SIGINT");
    assert.equal(report.flows.length, 60);
    const started = api.seen.filter((s) => s.path === "/slow").map((s) => s.query.get("f"));
    const cleaned = api.seen.filter((s) => s.path === "/cleanup").map((s) => s.query.get("f"));
    assert.deepEqual(cleaned.sort(), started.sort());
    const kinds = report.flows.flatMap((f: { steps: { failure_kind?: string }[] }) =>
      f.steps.map((s) => s.failure_kind)
    );
    assert.ok(kinds.filter((k: string) => k === "interrupted").length >= 56);
    const junit = await Deno.readTextFile(`${dir}/out/junit.xml`);
    assert.equal(XMLValidator.validate(junit), true);
    const manifest = JSON.parse(await Deno.readTextFile(`${dir}/out/manifest.json`));
    assert.equal(manifest.exit_code, 130);
    const html = await Deno.readTextFile(`${dir}/out/report.html`);
    assert.ok(html.trimEnd().endsWith("</html>"));
    const log = (await Deno.readTextFile(`${dir}/out/run.log.ndjson`)).trimEnd().split("\n");
    assert.equal(JSON.parse(log.at(-1)!).event, "run_end");
  } finally {
    await api.stop();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("--fail-fast with two workers starts no flow after the first failure", async () => {
  const api = notingServer(async ({ query }) => {
    await sleep(50);
    return Response.json({ ok: query.get("f") !== "003" });
  });
  const files: Record<string, string> = {};
  for (let i = 0; i < 40; i++) {
    const n = String(i).padStart(3, "0");
    files[`flows/f${n}.yaml`] = `name: flow ${n}
steps:
  - name: get
    request: {url: "${api.base}/x?f=${n}"}
    assert: {json: [{path: $.json.ok, equals: true}]}
`;
  }
  const dir = await suite(files);
  try {
    const run = await runCli(
      ["run", "flows", "--workers", "2", "--jobs", "2", "--fail-fast", "--report-json", "r.json"],
      { cwd: dir },
    );
    assert.equal(run.code, 1, run.stderr);
    const report = JSON.parse(await Deno.readTextFile(`${dir}/r.json`));
    assert.equal(report.flows.length, 40);
    // No flow handed out once the failure was known (its answer, and a message to main, later).
    // The first four (two workers, two jobs each) were handed out at the start: on a loaded
    // machine a worker still booting may send one of them after f003 failed (a CI run saw f001).
    const failed = api.seen.find((s) => s.query.get("f") === "003")!;
    const late = api.seen.filter((s) => s.start > failed.end + 200);
    assert.deepEqual(late.map((s) => s.query.get("f")).filter((f) => Number(f) >= 4), []);
    assert.ok(api.seen.length < 10, `${api.seen.length} flows ran`);
    assert.equal(report.totals.flows.failed, 1);
    assert.equal(report.totals.flows.skipped, 40 - api.seen.length);
    assert.match(
      JSON.stringify(report.flows.at(-1)),
      /--fail-fast stopped the run after flows\/f003.yaml failed/,
    );
  } finally {
    await api.stop();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("--workers takes a positive number or auto", async () => {
  for (const value of ["0", "two", "1.5", "300"]) {
    const run = await runCli(["run", "examples/flows", "--workers", value]);
    assert.equal(run.code, 2, value);
    assert.match(run.stderr, /^error\[bad-workers\]: Expected --workers to be/, value);
  }
});

Deno.test("a flow file edited while the run goes runs as it was checked, on a worker too", async () => {
  let edited = false;
  const files: Record<string, string> = {};
  const api = notingServer(async ({ path }) => {
    if (!edited) {
      edited = true;
      // Every later flow file changes on disk: a worker that read it again would send /changed.
      for (const file of Object.keys(files)) {
        await Deno.writeTextFile(`${dir}/${file}`, files[file].replaceAll("/checked", "/changed"));
      }
    }
    await sleep(5);
    return Response.json({ items: [{ path }] });
  });
  for (let i = 0; i < 30; i++) {
    // A descendant path: no JSON holds the checked flow, so a worker loads it again.
    files[`flows/f${String(i).padStart(2, "0")}.yaml`] = `name: flow ${i}
steps:
  - name: get
    request: {url: "${api.base}/checked?n=${i}"}
    assert: {status: 200, json: [{path: $.json..path, contains: /checked}]}
`;
  }
  const dir = await suite(files);
  try {
    const run = await runCli(["run", "flows", "--workers", "2", "--jobs", "2"], { cwd: dir });
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.ok(edited);
    assert.deepEqual(api.seen.filter((s) => s.path !== "/checked").map((s) => s.path), []);
    assert.equal(api.seen.length, 30);
  } finally {
    await api.stop();
    await Deno.remove(dir, { recursive: true });
  }
});

/**
 * History (issue 42, item 3): `--history` reads earlier JSON reports and the
 * console and the HTML report show each flow's streak, and flag a flow that
 * started failing in this run apart from one that has been failing. The CLI
 * runs as a subprocess against a server the test starts; the earlier
 * reports are those of earlier CLI runs.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";

/** `/k/NAME` answers what `status` says for NAME (200 by default). */
function server() {
  const status = new Map<string, number>();
  const s = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const name = new URL(req.url).pathname.split("/").pop()!;
    return new Response(null, { status: status.get(name) ?? 200 });
  });
  return { server: s, base: `http://127.0.0.1:${s.addr.port}`, status };
}

const flow = (name: string, base: string) =>
  `name: ${name}\nsteps:\n  - name: get\n    request: {url: "${base}/k/${name}"}\n    assert: {status: 200}\n`;

Deno.test("--history shows each flow's streak and tells a new failure from a long one", async () => {
  const api = server();
  const dir = await Deno.makeTempDir({ prefix: "flowrun-history-" });
  try {
    await Deno.mkdir(`${dir}/flows`);
    await Deno.mkdir(`${dir}/other`);
    for (const name of ["fresh", "long", "steady"]) {
      await Deno.writeTextFile(`${dir}/flows/${name}.yaml`, flow(name, api.base));
    }
    await Deno.writeTextFile(`${dir}/other/elsewhere.yaml`, flow("elsewhere", api.base));
    api.status.set("long", 500);
    const ids: string[] = [];
    for (const [i, paths] of [[`${dir}/flows`], [`${dir}/flows`], [`${dir}/other`]].entries()) {
      const run = await runCli([
        "run",
        ...paths,
        "--run-id",
        `past-${i}`,
        "--report-json",
        `${dir}/r${i}.json`,
      ]);
      assert.equal(run.code, i < 2 ? 1 : 0, run.stdout + run.stderr);
      ids.push(`past-${i}`);
    }
    api.status.set("fresh", 503);
    const cli = await runCli([
      "run",
      `${dir}/flows`,
      ...[0, 1, 2].flatMap((i) => ["--history", `${dir}/r${i}.json`]),
      "--report-html",
      `${dir}/now.html`,
      "--console",
      "compact",
    ]);
    assert.equal(cli.code, 1, cli.stdout + cli.stderr);
    const out = cli.stdout;
    assert.match(
      out,
      /History \(2 earlier runs, newest last; 1 report of other suites left out\):/,
    );
    assert.match(out, /✔✔✘ {2}\S*fresh\.yaml · fresh {2}new failure: passed in the last 2 runs/);
    assert.match(out, /✘✘✘ {2}\S*long\.yaml · long {2}failing since past-0 \(\d{4}-\d{2}-\d{2}\)/);
    assert.match(out, /1 flow passed in every run read/);
    assert.ok(!/steady\.yaml · steady {2}/.test(out.split("History")[1]), out);
    const html = await Deno.readTextFile(`${dir}/now.html`);
    assert.match(html, /"streak":"✔✔✘","note":"new failure: passed in the last 2 runs"/);
    assert.match(html, /"streak":"✔✔✔"/);

    // A report that is not JSON is a usage error naming the option; too many reports too.
    await Deno.writeTextFile(`${dir}/bad.json`, "not json");
    const bad = await runCli(["run", `${dir}/flows`, "--history", `${dir}/bad.json`]);
    assert.equal(bad.code, 2, bad.stdout + bad.stderr);
    assert.match(bad.stderr, /bad-history.*--history ".*bad\.json"/s);
    const many = await runCli([
      "run",
      `${dir}/flows`,
      ...Array.from({ length: 21 }, () => ["--history", `${dir}/r0.json`]).flat(),
    ]);
    assert.equal(many.code, 2);
    assert.match(many.stderr, /at most 20 reports/);
  } finally {
    await api.server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a flaky flow's history says how often it was flaky", async () => {
  let n = 0;
  const s = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, () =>
    // Every odd request fails: each run fails once, then passes on its re-run.
    new Response(null, { status: ++n % 2 === 1 ? 503 : 200 }));
  const dir = await Deno.makeTempDir({ prefix: "flowrun-history-flaky-" });
  try {
    await Deno.writeTextFile(`${dir}/f.yaml`, flow("wobbly", `http://127.0.0.1:${s.addr.port}`));
    const first = await runCli([
      "run",
      `${dir}/f.yaml`,
      "--retries",
      "1",
      "--report-json",
      `${dir}/r.json`,
    ]);
    assert.equal(first.code, 0, first.stdout + first.stderr);
    const second = await runCli([
      "run",
      `${dir}/f.yaml`,
      "--retries",
      "1",
      "--history",
      `${dir}/r.json`,
    ]);
    assert.equal(second.code, 0, second.stdout + second.stderr);
    assert.match(second.stdout, /⚠⚠ {2}\S*f\.yaml · wobbly {2}flaky in 2 of the last 2 runs/);
  } finally {
    await s.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});

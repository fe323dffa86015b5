/**
 * Red-team of `--workers`: a mixed suite (data rows inline and from a CSV
 * file, `foreach`, `--retries` with a flaky flow, a serial flow, setup and
 * teardown, a secret capture, flows a worker loads again from their bytes)
 * gives every artifact (JSON, JUnit, NDJSON log, HTML, manifest, console)
 * over three threads as on one, timings aside.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";
import { notingServer, stableJson, stableJunit, suite } from "../support/workers.ts";

/** A mixed suite against `base`; `/flaky` fails a flow's first attempt. */
function mixed(base: string): Record<string, string> {
  const files: Record<string, string> = {
    "setup.yaml": `name: setup
steps:
  - name: login
    request: {method: POST, url: "${base}/echo?session_token=sess-setup-0123456789"}
    capture: {session_token: $.json.session_token}
outputs:
  token: "\${steps.login.capture.session_token}"
`,
    "teardown.yaml": `name: teardown
steps:
  - name: bye
    request: {url: "${base}/echo?bye=\${setup.token}"}
`,
    "data/users.csv": "name,role\nann,admin\nbob,viewer\n",
    "flows/csv.yaml": `name: csv rows
data: {file: ../data/users.csv}
vars: {name: "", role: none}
steps:
  - name: get
    request: {url: "${base}/echo?role=\${vars.role}"}
    assert: {json: [{path: $.json..role, contains: admin}]}
`,
    "flows/each.yaml": `name: each
steps:
  - name: make
    foreach: [200, 500, 201]
    as: code
    request: {url: "${base}/echo?status=\${vars.code}"}
    assert: {status: 200}
`,
    "flows/flaky.yaml": `name: flaky
steps:
  - name: get
    request: {url: "${base}/flaky?run=one"}
    assert: {status: 200}
`,
    "flows/serial.yaml": `name: serial one
serial: true
steps:
  - name: get
    request: {url: "${base}/echo?serial=1&t=\${setup.token}"}
    assert: {json: [{path: $.json.serial, equals: "2"}]}
`,
  };
  for (let i = 0; i < 12; i++) {
    const n = String(i).padStart(2, "0");
    files[`flows/f${n}.yaml`] = `name: flow ${n}
steps:
  - name: get
    request: {url: "${base}/echo?n=${n}&status=${i % 5 === 2 ? 404 : 200}&api_key=k-${n}-abcdefgh"}
    capture: {n: $.json..n}
    assert: {status: 200}
  - name: again
    request: {url: "${base}/echo?again=\${steps.get.capture.n}"}
`;
  }
  return files;
}

/** The server: `/echo` answers its query (status from `?status=`), `/flaky` fails a run's first call. */
function server(calls: Map<string, number>) {
  return notingServer(({ path, query }) => {
    if (path === "/flaky") {
      const run = query.get("run")!;
      calls.set(run, (calls.get(run) ?? 0) + 1);
      return Response.json({ call: calls.get(run) }, { status: calls.get(run) === 1 ? 503 : 200 });
    }
    return Response.json(Object.fromEntries(query), { status: Number(query.get("status") ?? 200) });
  });
}

/** The HTML report without what differs between two runs (times, durations). */
function stableHtml(text: string): unknown {
  const data = text.match(/<script type="application\/json" id="data">(.*?)<\/script>/s)![1];
  const page = text.replace(data, "").replace(/\d{4}-\d\d-\d\d[ T][\d:.]+( UTC|Z)/g, "T")
    .replace(/\b\d+(\.\d+)? ?(ms|s)\b/g, "N ms");
  const flows = JSON.parse(
    data,
    (key, value) => ["d", "t", "date"].includes(key) || /^\d{4}-\d\d-\d\dT/.test(value) ? 0 : value,
  ).flows;
  return { page, flows: flows.map((f: unknown[]) => f.with(4, 0)) };
}

/**
 * The NDJSON log's lines by flow (a flow's lines are written together, from
 * its `flow_start`), in order, times aside: flows interleave as they end.
 */
function logByFlow(text: string): Record<string, string[]> {
  const byFlow: Record<string, string[]> = {};
  let flow = "";
  for (const line of text.trimEnd().split("\n")) {
    const { ts: _, duration_ms: __, started_at: ___, ...rest } = JSON.parse(line);
    if (rest.event === "flow_start") flow = `${rest.file} ${rest.name}`;
    if (rest.event === "run_start" || rest.event === "run_end") flow = "";
    (byFlow[flow] ??= []).push(JSON.stringify(rest));
  }
  return byFlow;
}

/** The console's blocks, one per flow (printed as flows end), sorted; then its recap. */
function blocks(stdout: string): string[] {
  const [run, recap] = stdout.split("\nFailures:\n");
  return [...run.split(/\n(?=[✔✘⚠○] )/).sort(), recap];
}

Deno.test("every artifact of a mixed suite over three threads is that of one thread", async () => {
  const calls = new Map<string, number>();
  const api = server(calls);
  const dir = await suite(mixed(api.base));
  try {
    const outputs = async (workers: string) => {
      calls.clear();
      const run = await runCli([
        "run",
        "flows",
        "--workers",
        workers,
        "--jobs",
        "3",
        "--retries",
        "1",
        "--setup",
        "setup.yaml",
        "--teardown",
        "teardown.yaml",
        "--run-id",
        "same",
        "--out-dir",
        `out${workers}`,
      ], { cwd: dir });
      const out = `${dir}/out${workers}`;
      const manifest = JSON.parse(await Deno.readTextFile(`${out}/manifest.json`));
      return {
        code: run.code,
        json: stableJson(await Deno.readTextFile(`${out}/report.json`)),
        junit: stableJunit(await Deno.readTextFile(`${out}/junit.xml`)),
        html: stableHtml(await Deno.readTextFile(`${out}/report.html`)),
        log: logByFlow(await Deno.readTextFile(`${out}/run.log.ndjson`)),
        manifest: {
          ...manifest,
          started_at: 0,
          ended_at: 0,
          command: 0,
          artifacts: manifest.artifacts.map((a: { path: string }) => a.path.replace(/^out\d/, "")),
        },
        stdout: run.stdout.replace(/\b\d+(\.\d+)? ?(ms|s)\b/g, "N ms"),
        stderr: run.stderr,
      };
    };
    const one = await outputs("1");
    const three = await outputs("3");
    await Deno.writeTextFile("/tmp/rt/one.json", JSON.stringify(one, null, 1));
    await Deno.writeTextFile("/tmp/rt/three.json", JSON.stringify(three, null, 1));
    assert.equal(three.code, one.code, three.stderr);
    assert.deepEqual(three.json, one.json);
    assert.equal(three.junit, one.junit);
    assert.deepEqual(three.log, one.log);
    assert.deepEqual(three.html, one.html);
    assert.deepEqual(three.manifest, one.manifest);
    assert.equal(three.stderr, one.stderr);
    assert.deepEqual(blocks(three.stdout), blocks(one.stdout));
  } finally {
    await api.stop();
    await Deno.remove(dir, { recursive: true });
  }
});

/**
 * `--workers`: 40 flow files (passing, failing, data rows, an include,
 * tags) give the same reports over several threads as on the main thread
 * alone, times and durations aside; in-process, `--workers 3` really
 * starts two workers besides the main thread (`Worker` is counted, not replaced) and each
 * flow's events keep their order; through the CLI, the JSON and JUnit
 * reports are the same files.
 */
import assert from "node:assert/strict";
import { loadFlows } from "../../../lib/load/suite.ts";
import type { FlowResult } from "../../../lib/model/result.ts";
import { runFlows } from "../../../lib/run/flows.ts";
import { notingServer, runWorkers, stableJson, stableJunit, suite } from "../../support/workers.ts";

/** 40 files: 30 passing, 5 failing, a data-driven flow of 3 rows, an include, 3 with a json-p3 path. */
function files(base: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i < 35; i++) {
    const status = i % 7 === 3 ? 500 : 200;
    out[`flows/f${String(i).padStart(2, "0")}.yaml`] = `name: flow ${i}
steps:
  - name: get
    request: {url: "${base}/echo?n=${i}&status=${status}"}
    capture: {n: $.json.n}
    assert: {status: 200, json: [{path: $.json.n, equals: "${i}"}]}
  - name: again
    request: {url: "${base}/echo?n=\${steps.get.capture.n}b"}
    assert: {status: 200}
`;
  }
  out["flows/rows.yaml"] = `name: rows
data:
  - {name: one, n: 1}
  - {name: two, n: 2}
  - {name: three, n: 3}
steps:
  - name: get
    request: {url: "${base}/echo?row=n\${vars.n}"}
    assert: {status: 200, json: [{path: $.json.row, equals: "n\${vars.n}"}]}
`;
  out["flows/include.yaml"] = `name: includes
steps:
  - name: login
    include: ../common/login.yaml
    with: {user: bob}
  - name: me
    request: {url: "${base}/echo?token=\${steps.login.token}"}
    assert: {status: 200}
`;
  out["common/login.yaml"] = `name: login
vars:
  user: ann
steps:
  - name: post
    request: {url: "${base}/echo?t=tok-\${vars.user}"}
    capture: {t: $.json.t}
outputs:
  token: "\${steps.post.capture.t}"
`;
  for (const n of [1, 2, 3]) {
    // A descendant path is compiled by json-p3 into an object no JSON holds: the worker loads
    // these from their files again.
    out[`flows/tagged${n}.yaml`] = `name: tagged ${n}
tags: [smoke]
steps:
  - name: get
    request: {url: "${base}/echo?tagged=${n}"}
    assert: {status: 200, json: [{path: $.json..tagged, contains: "${n}"}]}
`;
  }
  return out;
}

/**
 * The log's lines by flow file, in order, without times and durations (a
 * data-driven file's rows run side by side, so its lines are sorted).
 */
function logByFile(text: string): Map<string, string[]> {
  const byFile = new Map<string, string[]>();
  for (const line of text.trimEnd().split("\n")) {
    const { event, ts: _, duration_ms: __, file, ...rest } = JSON.parse(line);
    if (!file) continue;
    const entry = event === "flow_end"
      ? `${event} ${rest.status}`
      : `${event} ${JSON.stringify(rest)}`;
    byFile.set(file, [...byFile.get(file) ?? [], entry]);
  }
  byFile.get("flows/rows.yaml")?.sort();
  // Every row's flow_start is there (they were lost when the log held lines by file alone).
  if (byFile.get("flows/rows.yaml")?.filter((l) => l.startsWith("flow_start")).length !== 3) {
    throw new Error(`rows.yaml's three flow_start lines: ${byFile.get("flows/rows.yaml")}`);
  }
  return byFile;
}

/** Counts the workers a run starts: the real `Worker`, wrapped. */
function countWorkers(): { count(): number; restore(): void } {
  const Real = globalThis.Worker;
  let n = 0;
  globalThis.Worker = class extends Real {
    constructor(url: string | URL, options?: WorkerOptions) {
      n++;
      super(url, options);
    }
  };
  return { count: () => n, restore: () => void (globalThis.Worker = Real) };
}

async function run(dir: string, workers: number) {
  const loaded = await loadFlows([`${dir}/flows`], { setupFiles: [] });
  assert.deepEqual(loaded.problems, []);
  const events: string[] = [];
  const result = await runFlows(loaded.flows, {
    runId: "same-run",
    jobs: 4,
    workers: { count: workers, checkSetup: true },
    reporter: {
      onFlowStart: (f) => void events.push(`start ${f.name}`),
      onStepEnd: (f, s) => void events.push(`step ${f.name} ${s.name}`),
      onFlowEnd: (f: FlowResult) => void events.push(`end ${f.name}`),
    },
  });
  return { result, events };
}

/** Each flow's events in the order they came: start, its steps, end. */
function perFlow(events: readonly string[]): Map<string, string[]> {
  const flows = new Map<string, string[]>();
  for (const e of events) {
    const [kind, ...rest] = e.split(" ");
    const name = kind === "step" ? rest.slice(0, -1).join(" ") : rest.join(" ");
    flows.set(name, [...flows.get(name) ?? [], kind === "step" ? `step ${rest.at(-1)}` : kind]);
  }
  return flows;
}

Deno.test("three threads give the run result one thread gives, and start two workers", async () => {
  const api = notingServer();
  const dir = await suite(files(api.base));
  const workers = countWorkers();
  try {
    const one = await run(dir, 1);
    assert.equal(workers.count(), 0);
    // Three threads: the main thread and two workers.
    const two = await run(dir, 3);
    assert.equal(workers.count(), 2);
    assert.equal(two.result.flows.length, 42);
    assert.deepEqual(
      stableJson(JSON.stringify(two.result)),
      stableJson(JSON.stringify(one.result)),
    );
    assert.equal(two.result.totals.flows.failed, 5);
    assert.equal(two.result.totals.flows.passed, 37);
    // Every flow's events, in its own order, as on one thread.
    assert.deepEqual(perFlow(two.events), perFlow(one.events));
  } finally {
    workers.restore();
    await api.stop();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("the CLI's JSON and JUnit reports over two workers are those of --workers 1", async () => {
  const api = notingServer();
  const dir = await suite(files(api.base));
  try {
    const reports = async (workers: string) => {
      const run = await runWorkers(dir, workers, "4", [
        "--run-id",
        "same-run",
        "--report-json",
        `r${workers}.json`,
        "--report-junit",
        `r${workers}.xml`,
        "--log-file",
        `r${workers}.ndjson`,
      ]);
      assert.equal(run.code, 1, run.stderr);
      return {
        json: stableJson(await Deno.readTextFile(`${dir}/r${workers}.json`)),
        junit: stableJunit(await Deno.readTextFile(`${dir}/r${workers}.xml`)),
        log: logByFile(await Deno.readTextFile(`${dir}/r${workers}.ndjson`)),
        stdout: run.stdout,
      };
    };
    const one = await reports("1");
    const two = await reports("2");
    assert.deepEqual(two.json, one.json);
    assert.equal(two.junit, one.junit);
    // The log: each flow's lines in the same order (flows interleave as they end, as with --jobs).
    assert.deepEqual(two.log, one.log);
    assert.equal(two.log.get("flows/f03.yaml")?.at(-1), "flow_end failed");
    assert.match(two.stdout, /42 flows/);
  } finally {
    await api.stop();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("past the first 500 flows (held as checked JSON) reports and manifest are those of one thread", async () => {
  const api = notingServer();
  const files: Record<string, string> = {};
  for (let i = 0; i < 520; i++) {
    const n = String(i).padStart(3, "0");
    files[`flows/f${n}.yaml`] = `name: flow ${n}
steps:
  - name: get
    request: {url: "${api.base}/echo?n=${n}&status=${i % 100 === 7 ? 500 : 200}"}
    assert: {status: 200, json: [{path: $.json.n, equals: "${n}"}]}
`;
  }
  const dir = await suite(files);
  try {
    const outputs = async (workers: string) => {
      const run = await runWorkers(dir, workers, "8", [
        "--run-id",
        "same",
        "--out-dir",
        `out${workers}`,
      ]);
      assert.equal(run.code, 1, run.stderr);
      const manifest = JSON.parse(await Deno.readTextFile(`${dir}/out${workers}/manifest.json`));
      return {
        json: stableJson(await Deno.readTextFile(`${dir}/out${workers}/report.json`)),
        hashes: JSON.stringify(manifest.flows ?? manifest.files),
      };
    };
    const one = await outputs("1");
    const two = await outputs("2");
    assert.deepEqual(two.json, one.json);
    assert.equal(two.hashes, one.hashes);
    assert.match(two.hashes, /f519\.yaml/);
    assert.equal(api.seen.length, 1040);
  } finally {
    await api.stop();
    await Deno.remove(dir, { recursive: true });
  }
});

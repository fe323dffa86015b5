/**
 * Reports written flow by flow give the same bytes as the whole result
 * rendered at once: flows run in parallel (so they end out of order) with
 * their results shrunk as soon as they are reported, and each report's
 * pieces spooled to a temporary file; a copy of each flow taken when it
 * ended renders the expected report. The CLI leaves no spool behind.
 */
import assert from "node:assert/strict";
import { startDemoApi } from "../../examples/demo_api.ts";
import { loadFlows } from "../../lib/load/suite.ts";
import { runFlows } from "../../lib/run/flows.ts";
import type { FlowResult, RunResult } from "../../lib/model/result.ts";
import { combineReporters, type Reporter } from "../../lib/report/reporter.ts";
import { JSON_FORMAT, jsonReporter } from "../../lib/report/json.ts";
import { junitFormat, junitReporter } from "../../lib/report/junit.ts";
import { htmlFormat, htmlReporter } from "../../lib/report/html.ts";
import { renderWhole } from "../../lib/report/streamed.ts";
import { openSpool } from "../../cli/run/spool.ts";
import { runCli } from "../support/cli.ts";
import { failedCheck, failedStep, flowOf } from "../support/results.ts";
import { memorySpool } from "./memory_spool.ts";

const FLOW = (n: number, fail: boolean) => `
name: flow ${n}
steps:
  - name: login
    request:
      method: POST
      url: \${ENV.BASE_URL}/login
      body: { username: demo, password: demo-password }
    capture:
      token: $.json.token
  - name: wait
    request: { url: "\${ENV.BASE_URL}/slow?ms=${((n * 7) % 5) * 15}" }
  - name: echo
    request:
      url: \${ENV.BASE_URL}/echo/${n}
      headers: { authorization: "Bearer \${steps.login.capture.token}" }
    assert:
      status: ${fail ? 201 : 200}
      json:
        - { path: $.json.path, equals: /echo/${n} }
  - name: after
    request: { url: "\${ENV.BASE_URL}/health" }
`;

async function writeFlows(dir: string, count: number): Promise<void> {
  for (let n = 0; n < count; n++) {
    await Deno.writeTextFile(`${dir}/f${String(n).padStart(2, "0")}.yaml`, FLOW(n, n % 3 === 1));
  }
}

for (const spoolKind of ["file", "memory"] as const) {
  Deno.test(`streamed reports equal whole ones, flows compacted and out of order (${spoolKind} spool)`, async () => {
    const api = await startDemoApi();
    const dir = await Deno.makeTempDir();
    try {
      await writeFlows(dir, 12);
      const env = (name: string) => (name === "BASE_URL" ? api.url : undefined);
      const loaded = await loadFlows([dir], { env });
      assert.deepEqual(loaded.problems, []);
      const spool = () => spoolKind === "file" ? openSpool() : Promise.resolve(memorySpool());
      const out = { json: "", junit: "", html: "" };
      const writer = (key: keyof typeof out) => (text: string) => {
        out[key] += text;
        return Promise.resolve();
      };
      // What each flow's result was when it ended, before the runner shrank it.
      const copies = new Map<FlowResult, FlowResult>();
      const ended: string[] = [];
      const copier: Reporter = {
        onFlowEnd(flow) {
          copies.set(flow, structuredClone(flow));
          ended.push(flow.file);
        },
      };
      const reporter = combineReporters(
        copier,
        jsonReporter(writer("json"), await spool()),
        junitReporter(writer("junit"), {}, await spool()),
        htmlReporter(writer("html"), {}, await spool()),
      );
      const result = await runFlows(loaded.flows, { env, jobs: 4, compact: true, reporter });
      assert.notDeepEqual(ended, [...ended].sort(), "flows ended out of order");
      // The result kept is small: no bodies or headers of any step.
      for (const step of result.flows.flatMap((f) => f.steps)) {
        assert.equal(step.response?.body, undefined);
        assert.equal(step.request?.headers, undefined);
      }
      const whole: RunResult = { ...result, flows: result.flows.map((f) => copies.get(f)!) };
      assert.equal(out.json, renderWhole(JSON_FORMAT, whole));
      assert.equal(out.junit, renderWhole(junitFormat(), whole));
      assert.equal(out.html, renderWhole(htmlFormat(), whole));
      // And that is what a caller that keeps every result gets.
      const report = JSON.parse(out.json);
      assert.equal(report.flows.length, 12);
      assert.equal(report.totals.flows.failed, 4);
      assert.ok(report.flows[1].steps[2].response.body.includes("/echo/1"), "bodies are reported");
      assert.equal(report.flows[1].steps[2].assertions[0].passed, false);
    } finally {
      await Deno.remove(dir, { recursive: true });
      await api.close();
    }
  });
}

Deno.test("a run's reports are complete and its spools removed, also with every flow failing", async () => {
  const api = await startDemoApi();
  const dir = await Deno.makeTempDir();
  const tmp = await Deno.makeTempDir();
  try {
    await Deno.mkdir(`${dir}/flows`);
    for (let n = 0; n < 6; n++) {
      await Deno.writeTextFile(`${dir}/flows/f${n}.yaml`, FLOW(n, true));
    }
    const run = await runCli(["run", `${dir}/flows`, "--out-dir", `${dir}/out`, "--jobs", "3"], {
      env: { BASE_URL: api.url, TMPDIR: tmp },
    });
    assert.equal(run.code, 1, run.stderr);
    const report = JSON.parse(await Deno.readTextFile(`${dir}/out/report.json`));
    assert.deepEqual(report.flows.map((f: { file: string }) => f.file.replace(/.*\//, "")), [
      "f0.yaml",
      "f1.yaml",
      "f2.yaml",
      "f3.yaml",
      "f4.yaml",
      "f5.yaml",
    ]);
    assert.equal(report.totals.flows.failed, 6);
    const junit = await Deno.readTextFile(`${dir}/out/junit.xml`);
    assert.equal(junit.match(/<testsuite /g)?.length, 6);
    assert.ok(junit.endsWith("</testsuites>\n"));
    const html = await Deno.readTextFile(`${dir}/out/report.html`);
    assert.ok(html.endsWith("</html>\n"));
    // The manifest's hashes are of the bytes on disk.
    const manifest = JSON.parse(await Deno.readTextFile(`${dir}/out/manifest.json`));
    const kinds: string[] = [];
    for (const artifact of manifest.artifacts) {
      const bytes = await Deno.readFile(artifact.path);
      const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
      const hex = [...digest].map((b) => b.toString(16).padStart(2, "0")).join("");
      assert.equal(artifact.sha256, hex, artifact.path);
      assert.equal(artifact.bytes, bytes.length, artifact.path);
      kinds.push(artifact.kind);
    }
    assert.deepEqual(kinds.sort(), ["html", "json", "junit", "log"]);
    assert.deepEqual([...Deno.readDirSync(tmp)].map((e) => e.name), [], "no spool left behind");
  } finally {
    await Deno.remove(dir, { recursive: true });
    await Deno.remove(tmp, { recursive: true });
    await api.close();
  }
});

Deno.test("a report that fails halfway through leaves no half file and no temporary file", async () => {
  const { Artifacts } = await import("../../cli/run/artifacts.ts");
  const dir = await Deno.makeTempDir();
  try {
    const artifacts = await Artifacts.open({ json: `${dir}/report.json` });
    const reporter = combineReporters(...await artifacts.reporters({}));
    const flow = (name: string, actual: unknown): FlowResult =>
      flowOf(name, "failed", [
        failedStep({ name: "s", assertions: [failedCheck(actual, { line: 2, column: 3 })] }),
      ]);
    // The first flow is written; the second, never reported as ended, cannot be serialised.
    const flows = [flow("a", 2), flow("b", 10n)];
    const none = { total: 0, passed: 0, failed: 0, error: 0, skipped: 0 };
    const run = { run_id: "r", runner_version: "0", started_at: "", duration_ms: 1 };
    await reporter.onRunStart?.({ ...run, files: [] });
    await reporter.onFlowEnd?.(flows[0]);
    await reporter.onRunEnd?.({
      ...run,
      status: "failed",
      totals: { flows: none, steps: none, assertions: { total: 0, passed: 0, failed: 0 } },
      flows,
    });
    assert.equal(artifacts.failures.length, 1);
    assert.equal(artifacts.failures[0].kind, "json");
    assert.deepEqual([...Deno.readDirSync(dir)].map((e) => e.name), [], "nothing left behind");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("without a writable temporary directory, reports are spooled in memory", async () => {
  const api = await startDemoApi();
  const dir = await Deno.makeTempDir();
  try {
    await Deno.mkdir(`${dir}/flows`);
    for (let n = 0; n < 3; n++) {
      await Deno.writeTextFile(`${dir}/flows/f${n}.yaml`, FLOW(n, n === 1));
    }
    const run = await runCli(["run", `${dir}/flows`, "--out-dir", `${dir}/out`], {
      env: { BASE_URL: api.url, TMPDIR: `${dir}/missing` },
    });
    assert.equal(run.code, 1, run.stderr);
    const report = JSON.parse(await Deno.readTextFile(`${dir}/out/report.json`));
    assert.equal(report.flows.length, 3);
    assert.equal(report.totals.flows.failed, 1);
    const junit = await Deno.readTextFile(`${dir}/out/junit.xml`);
    assert.equal(junit.match(/<testsuite /g)?.length, 3);
  } finally {
    await Deno.remove(dir, { recursive: true });
    await api.close();
  }
});

Deno.test("the file spool gives every piece back whole, in order, shuffled and past its window", async () => {
  const spool = await openSpool();
  try {
    // Pieces of every size around the read window (256 KiB), with multi-byte characters.
    const sizes = [1, 10, 3_000, 100_000, 262_143, 262_144, 262_145, 300_000, 7, 0, 5_000];
    const flows = Array.from({ length: 600 }, (_, i) => ({ file: `f${i}.yaml` }) as FlowResult);
    const texts = flows.map((_, i) => `${i}:` + "é€x".repeat(sizes[i % sizes.length] / 3));
    for (let i = 0; i < flows.length; i++) await spool.put(flows[i], texts[i]);
    // In order for the first half, then shuffled, as --jobs makes flows end out of order.
    const order = flows.map((_, i) => i);
    const rest = order.splice(300);
    for (let i = rest.length - 1; i > 0; i--) {
      const j = (i * 7919) % (i + 1);
      [rest[i], rest[j]] = [rest[j], rest[i]];
    }
    for (const i of [...order, ...rest]) {
      assert.equal(await spool.take(flows[i]), texts[i], `piece ${i}`);
    }
    assert.equal(await spool.take(flows[0]), undefined, "a piece is given back once");
  } finally {
    await spool.close();
  }
});

/**
 * The reports written together from one spool of masked flows: the same
 * bytes as each report rendered whole from results masked with every secret
 * of the run; the spool never holds a secret known when a flow was put; a
 * secret learnt after a flow ended is masked in every report; a report that
 * fails stops alone.
 */
import assert from "node:assert/strict";
import { startDemoApi } from "../../examples/demo_api.ts";
import { loadFlows } from "../../lib/load/suite.ts";
import { runFlows } from "../../lib/run/flows.ts";
import type { FlowResult, RunResult } from "../../lib/model/result.ts";
import { combineReporters, type Reporter } from "../../lib/report/reporter.ts";
import { JSON_FORMAT } from "../../lib/report/json.ts";
import { junitFormat } from "../../lib/report/junit.ts";
import { htmlFormat } from "../../lib/report/html.ts";
import { renderWhole, type ReportFormat } from "../../lib/report/streamed.ts";
import { FlowMasks } from "../../lib/report/flow_masks.ts";
import { type ReportOutput, sharedReports } from "../../lib/report/shared_reports.ts";
import { Redactor } from "../../lib/secrets/mod.ts";
import { failedStep, flowOf } from "../support/results.ts";
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
  - name: echo
    request:
      url: \${ENV.BASE_URL}/echo/${n}
      headers: { authorization: "Bearer \${steps.login.capture.token}" }
    assert:
      status: ${fail ? 201 : 200}
`;

function output(format: ReportFormat, into: { text: string; failed?: unknown }): ReportOutput {
  return {
    format,
    write: (text) => Promise.resolve(void (into.text += text)),
    fail: (error) => Promise.resolve(void (into.failed = error)),
  };
}

const EMPTY = { total: 0, passed: 0, failed: 0, error: 0, skipped: 0 };

function runOf(flows: FlowResult[]): RunResult {
  return {
    run_id: "r",
    runner_version: "0",
    started_at: "",
    duration_ms: 0,
    status: "failed",
    totals: { flows: EMPTY, steps: EMPTY, assertions: { total: 0, passed: 0, failed: 0 } },
    flows,
  };
}

Deno.test("reports written together from raw events equal each rendered whole from masked results", async () => {
  const api = await startDemoApi();
  const dir = await Deno.makeTempDir();
  try {
    for (let n = 0; n < 8; n++) {
      await Deno.writeTextFile(`${dir}/f${n}.yaml`, FLOW(n, n % 3 === 1));
    }
    const env = (name: string) => (name === "BASE_URL" ? api.url : undefined);
    const loaded = await loadFlows([dir], { env });
    const redactor = new Redactor();
    const masks = new FlowMasks(redactor);
    const spool = memorySpool();
    const out = { json: { text: "" }, junit: { text: "" }, html: { text: "" } };
    const copies = new Map<FlowResult, FlowResult>();
    const copier: Reporter = { onFlowEnd: (flow) => void copies.set(flow, structuredClone(flow)) };
    const reports = sharedReports(
      [
        output(JSON_FORMAT, out.json),
        output(junitFormat(), out.junit),
        output(htmlFormat(), out.html),
      ],
      spool,
      masks,
    );
    const result = await runFlows(loaded.flows, {
      env,
      jobs: 3,
      compact: true,
      rawEvents: true,
      redactor,
      reporter: combineReporters(copier, reports),
    });
    assert.equal(result.totals.flows.failed, 3);
    // Each raw copy masked with every secret of the run: what the reports must hold.
    const whole: RunResult = {
      ...result,
      flows: result.flows.map((f) => redactor.redactValue(copies.get(f)!)),
    };
    assert.equal(out.json.text, renderWhole(JSON_FORMAT, whole));
    assert.equal(out.junit.text, renderWhole(junitFormat(), whole));
    assert.equal(out.html.text, renderWhole(htmlFormat(), whole));
    // The failing steps kept their request, with the header (sent, so a secret whole) masked.
    const report = JSON.parse(out.json.text);
    assert.equal(report.flows[1].steps[1].request.headers.authorization, "***");
    // The raw copies did hold the tokens (hex): the masking is the reports' own.
    assert.match(JSON.stringify([...copies.values()]), /Bearer [0-9a-f]{32}/);
    // And the spool never held a token in the clear.
    assert.equal(spool.texts.length, 8);
    for (const text of spool.texts) assert.equal(redactor.redact(text), text);
  } finally {
    await Deno.remove(dir, { recursive: true });
    await api.close();
  }
});

Deno.test("a secret learnt after a flow ended is masked in every report of it", async () => {
  const redactor = new Redactor();
  const masks = new FlowMasks(redactor);
  const spool = memorySpool();
  const late = "l4te-s3cret-learnt-later";
  const out = { json: { text: "" }, junit: { text: "" }, html: { text: "" } };
  const reporter = sharedReports(
    [
      output(JSON_FORMAT, out.json),
      output(junitFormat(), out.junit),
      output(htmlFormat(), out.html),
    ],
    spool,
    masks,
  );
  const flow = flowOf("a", "failed", [failedStep({ message: `Expected "x", got "${late}".` })]);
  await reporter.onRunStart?.({ run_id: "r", runner_version: "0", started_at: "", files: [] });
  await reporter.onFlowEnd?.(flow);
  assert.ok(spool.texts[0].includes(late), "not a secret yet when the flow ended");
  redactor.add(late);
  await reporter.onRunEnd?.(runOf([flow]));
  for (const [name, { text }] of Object.entries(out)) {
    assert.ok(!text.includes(late), name);
    assert.ok(text.includes("***"), name);
  }
});

Deno.test("a report that cannot be written fails alone; the others are complete", async () => {
  const redactor = new Redactor();
  const masks = new FlowMasks(redactor);
  const good = { text: "" };
  const broken = { text: "", failed: undefined as unknown };
  let writes = 0;
  const failing: ReportOutput = {
    format: JSON_FORMAT,
    write: () => {
      if (++writes === 2) return Promise.reject(new Error("No space left on device"));
      return Promise.resolve();
    },
    fail: (error) => Promise.resolve(void (broken.failed = error)),
  };
  const reporter = sharedReports([failing, output(JSON_FORMAT, good)], memorySpool(), masks);
  const flows = ["a", "b", "c"].map((name) => flowOf(name, "passed"));
  await reporter.onRunStart?.({ run_id: "r", runner_version: "0", started_at: "", files: [] });
  for (const flow of flows) await reporter.onFlowEnd?.(flow);
  await reporter.onRunEnd?.(runOf(flows));
  assert.match(String(broken.failed), /No space left/);
  assert.equal(good.text, renderWhole(JSON_FORMAT, runOf(flows)));
  assert.equal(JSON.parse(good.text).flows.length, 3);
});

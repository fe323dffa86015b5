import assert from "node:assert/strict";
import { runSteps } from "../../lib/run/steps.ts";
import { makeContext } from "../../lib/run/make_context.ts";
import { loadFlow } from "../../lib/load/load_flow.ts";
import type { StepResult } from "../../lib/model/result.ts";
import type { Walk } from "../../lib/run/walk.ts";
import type { Flow } from "../../lib/model/flow.ts";
import { loadFlows } from "../../lib/load/suite.ts";
import { tempDir } from "../support/fs.ts";
import "../support/engines.ts";

const inputs = {
  literals: new Set<string>(),
  vars: new Set<string>(),
  env: new Set<string>(),
  captures: new Set<string>(),
};

async function walkFlow(yaml: string, url: string, stop?: string) {
  const { flow, problems } = loadFlow(yaml.replaceAll("URL", url), "f.yaml");
  assert.deepEqual(problems, []);
  const ctx = makeContext({ runId: "r", timeoutMs: 5000 });
  const walk: Walk = {
    ref: { file: "f.yaml", name: "f" },
    started: performance.now(),
    results: [],
    maskedAt: [],
  };
  const scope = { env: ctx.env, vars: new Map(), steps: new Map(), runId: "r" };
  try {
    const why = await runSteps(flow!.steps, {
      scope,
      ctx,
      walk,
      inputs,
      level: { prefix: "", stop },
    });
    return { why, results: walk.results as StepResult[] };
  } finally {
    ctx.deadlines?.close();
  }
}

async function withServer(body: (url: string) => Promise<void>) {
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    (r) => new Response(null, { status: new URL(r.url).pathname === "/fail" ? 500 : 200 }),
  );
  try {
    await body(`http://127.0.0.1:${server.addr.port}`);
  } finally {
    await server.shutdown();
  }
}

Deno.test("after a step fails the rest are skipped with the reason; cleanup steps still run", async () => {
  await withServer(async (url) => {
    const { why, results } = await walkFlow(
      `name: f
steps:
  - {name: a, request: {url: "URL/fail"}, assert: {status: 200}}
  - {name: b, request: {url: "URL/ok"}}
  - {name: c, always: true, request: {url: "URL/ok"}}
`,
      url,
    );
    assert.equal(why, 'step "a" failed');
    assert.deepEqual(results.map((r) => [r.name, r.status]), [["a", "failed"], ["b", "skipped"], [
      "c",
      "passed",
    ]]);
    assert.equal(results[1].message, 'Skipped because step "a" failed.');
  });
});

Deno.test("a condition that does not hold skips its step; the flow goes on", async () => {
  await withServer(async (url) => {
    const { why, results } = await walkFlow(
      `name: f
steps:
  - {name: a, if: {value: "one", equals: "two"}, request: {url: "URL/ok"}}
  - {name: b, request: {url: "URL/ok"}}
`,
      url,
    );
    assert.equal(why, undefined);
    assert.deepEqual(results.map((r) => [r.name, r.status, r.failure_kind]), [[
      "a",
      "skipped",
      "condition",
    ], ["b", "passed", undefined]]);
  });
});

Deno.test("a stop given from before skips every step but cleanup", async () => {
  const { why, results } = await walkFlow(
    'name: f\nsteps:\n  - {name: a, request: {url: "URL/"}}\n',
    "http://127.0.0.1:9",
    "the flow's vars could not be evaluated: x",
  );
  assert.equal(why, "the flow's vars could not be evaluated: x");
  assert.equal(results[0].message, "Skipped because the flow's vars could not be evaluated: x.");
});

Deno.test("an include runs its flow's steps, reported under the including step's name", async () => {
  await withServer(async (url) => {
    const dir = await tempDir();
    await Deno.writeTextFile(
      `${dir}/login.yaml`,
      `name: login\nsteps:\n  - {name: post, request: {url: "${url}/ok"}}\n`,
    );
    await Deno.writeTextFile(
      `${dir}/f.yaml`,
      `name: f\nsteps:\n  - {name: sign in, include: login.yaml}\n`,
    );
    const { flows, problems } = await loadFlows([`${dir}/f.yaml`]);
    await Deno.remove(dir, { recursive: true });
    assert.deepEqual(problems, []);
    const ctx = makeContext({ runId: "r", timeoutMs: 5000 });
    const walk: Walk = {
      ref: { file: "f.yaml", name: "f" },
      started: performance.now(),
      results: [],
      maskedAt: [],
    };
    const scope = { env: ctx.env, vars: new Map(), steps: new Map(), runId: "r" };
    await runSteps((flows[0] as Flow).steps, { scope, ctx, walk, inputs, level: { prefix: "" } });
    ctx.deadlines?.close();
    assert.deepEqual(walk.results.map((r) => [r.name, r.status]), [["sign in › post", "passed"]]);
  });
});

import assert from "node:assert/strict";
import { runStep } from "../../lib/run/step.ts";
import { makeContext } from "../../lib/run/make_context.ts";
import { loadFlow } from "../../lib/load/load_flow.ts";
import "../support/engines.ts";

const inputs = {
  literals: new Set<string>(),
  vars: new Set<string>(),
  env: new Set<string>(),
  captures: new Set<string>(),
};

function input(yaml: string) {
  const { flow, problems } = loadFlow(yaml, "f.yaml");
  assert.deepEqual(problems, []);
  const scope = { env: () => undefined, vars: new Map(), steps: new Map(), runId: "r" };
  const captured = new Map<string, unknown>();
  return {
    ref: { file: "f.yaml", name: "f" },
    step: flow!.steps[0],
    scope,
    captured,
    flowStarted: performance.now(),
    inputs,
  };
}

Deno.test("a polling step reports each attempt's start and status, and passes when until holds", async () => {
  let n = 0;
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    () => Response.json({ state: ++n >= 3 ? "ready" : "pending" }, { status: n === 1 ? 503 : 200 }),
  );
  const ctx = makeContext({ runId: "r", timeoutMs: 5000 });
  try {
    const i = input(`name: f
steps:
  - name: s
    request: {url: "http://127.0.0.1:${server.addr.port}/"}
    loop: {until: {json: [{path: $.json.state, equals: ready}]}, max_attempts: 5, sleep_ms: 1}
    capture: {state: $.json.state}
`);
    const r = await runStep(i, ctx);
    assert.equal(r.status, "passed", r.message);
    assert.equal(r.attempts, 3);
    assert.deepEqual(r.attempt_statuses, [503, 200, 200]);
    assert.equal(r.attempt_starts_ms?.length, 3);
    assert.equal(i.captured.get("state"), "ready");
  } finally {
    ctx.deadlines?.close();
    await server.shutdown();
  }
});

Deno.test("a step that does not poll keeps no attempt timings; a refused request is its error", async () => {
  const ctx = makeContext({ runId: "r", timeoutMs: 2000 });
  const r = await runStep(
    input(`name: f\nsteps:\n  - name: s\n    request: {url: "http://127.0.0.1:9/"}\n`),
    ctx,
  );
  ctx.deadlines?.close();
  assert.equal(r.status, "error");
  assert.equal(r.failure_kind, "request");
  assert.equal(r.attempts, 1);
  assert.equal(r.attempt_starts_ms, undefined);
  assert.equal(r.request?.url, "http://127.0.0.1:9/");
});

Deno.test("an expression that cannot be resolved fails the step before anything is sent", async () => {
  const ctx = makeContext({ runId: "r", timeoutMs: 2000 });
  const { flow } = loadFlow(
    `name: f\nsteps:\n  - name: a\n    request: {url: "http://127.0.0.1:9/"}\n    capture: {id: $.json.id}\n  - name: b\n    request: {url: "http://127.0.0.1:9/\${steps.a.capture.id}"}\n`,
    "f.yaml",
  );
  const scope = { env: () => undefined, vars: new Map(), steps: new Map(), runId: "r" };
  const r = await runStep(
    {
      ref: { file: "f.yaml", name: "f" },
      step: flow!.steps[1],
      scope,
      captured: new Map(),
      flowStarted: 0,
      inputs,
    },
    ctx,
  );
  ctx.deadlines?.close();
  assert.equal(r.failure_kind, "expression");
  assert.equal(r.attempts, 0);
  assert.equal(r.request, null);
});

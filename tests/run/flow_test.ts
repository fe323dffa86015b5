import assert from "node:assert/strict";
import { flowStatus, runOne } from "../../lib/run/flow.ts";
import { makeContext } from "../../lib/run/make_context.ts";
import { loadFlow } from "../../lib/load/load_flow.ts";
import type { FlowRef } from "../../lib/model/events.ts";
import type { FlowResult, StepResult } from "../../lib/model/result.ts";
import "../support/engines.ts";

function flow(text: string) {
  const { flow, problems } = loadFlow(text, "f.yaml");
  assert.deepEqual(problems, []);
  return flow!;
}

Deno.test("a flow run reports its start and end; its trace id when tracing", async () => {
  const heard: string[] = [];
  const ctx = makeContext({
    runId: "r",
    trace: true,
    reporter: {
      onFlowStart: (f: FlowRef) => void heard.push(`start ${f.name}`),
      onFlowEnd: (f: FlowResult) => void heard.push(`end ${f.status}`),
    },
  });
  const r = await runOne(
    flow(
      'name: f\nsteps:\n  - {name: s, if: {value: "a", equals: "b"}, request: {url: "http://a.test/"}}\n',
    ),
    ctx,
  );
  ctx.deadlines?.close();
  assert.deepEqual(heard, ["start f", "end passed"]);
  assert.match(r.trace_id!, /^[0-9a-f]{32}$/);
});

Deno.test("a setup flow hands its outputs over; none of a capture left unset by design", async () => {
  const ctx = makeContext({ runId: "r" });
  const outputs = new Map<string, unknown>();
  await runOne(
    flow(
      'name: f\nvars: {id: 7}\noutputs: {id: "${vars.id}"}\nsteps:\n  - {name: s, if: {value: a, equals: b}, request: {url: "http://a.test/"}}\n',
    ),
    ctx,
    undefined,
    outputs,
  );
  assert.deepEqual([...outputs], [["id", 7]]);
  // A capture left unset by design (optional, nothing found) gives no output, and nothing failed
  // (skipped_outputs.ts; tests/run/setup_unset_capture_output_test.ts).
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    () => Response.json({}),
  );
  const unset = new Map<string, unknown>();
  await runOne(
    flow(
      `name: f\nsteps:\n  - {name: a, request: {url: "http://127.0.0.1:${server.addr.port}/"}, capture: {x: {path: $.json.x, optional: true}}}\noutputs: {x: "\${steps.a.capture.x}"}\n`,
    ),
    ctx,
    undefined,
    unset,
  );
  await server.shutdown();
  assert.deepEqual([...unset], []);
  // A step its own condition skipped took the branch its flow wrote: its output is not produced,
  // and nothing failed (skipped_outputs.ts; tests/run/setup_skipped_output_test.ts).
  const skipped = new Map<string, unknown>();
  await runOne(
    flow(
      'name: f\nsteps:\n  - {name: a, if: {value: "a", equals: "b"}, request: {url: "http://a.test/"}, capture: {x: $.json.x}}\noutputs: {x: "${steps.a.capture.x}"}\n',
    ),
    ctx,
    undefined,
    skipped,
  );
  ctx.deadlines?.close();
  assert.deepEqual([...skipped], []);
});

Deno.test("a flow's status is the status of the step that stopped it", () => {
  const s = (status: string, failure_kind?: string) => ({ status, failure_kind }) as StepResult;
  assert.equal(flowStatus([s("passed"), s("error"), s("skipped", "skipped")]), "error");
  assert.equal(flowStatus([s("passed"), s("skipped", "interrupted")]), "skipped");
  assert.equal(flowStatus([s("skipped", "skipped")]), "error");
  assert.equal(flowStatus([s("skipped", "condition")]), "passed");
});

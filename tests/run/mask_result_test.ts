import assert from "node:assert/strict";
import { maskFlow, noteMasked } from "../../lib/run/mask_result.ts";
import { compactFlow, spillSteps } from "../../lib/model/compact.ts";
import { Redactor } from "../../lib/secrets/mod.ts";
import type { FlowResult, StepResult } from "../../lib/model/result.ts";

const SECRET = "s3cr3t-t0ken-value";

function failedFlow(message: string): FlowResult {
  const step = {
    name: "get",
    status: "failed",
    duration_ms: 1,
    attempts: 1,
    line: 3,
    column: 5,
    captures: [],
    request: { method: "GET", url: "http://x.test/" },
    response: null,
    assertions: [],
    message,
  } as unknown as StepResult;
  return {
    file: "a.yaml",
    name: "a",
    status: "failed",
    started_at: "",
    duration_ms: 1,
    steps: [step],
  };
}

Deno.test("a flow is masked in place, and stays the same object", () => {
  const redactor = new Redactor();
  const flow = failedFlow(`got ${SECRET}`);
  redactor.add(SECRET);
  maskFlow(flow, redactor);
  assert.equal(flow.steps[0].message, "got ***");
  assert.ok(!JSON.stringify(flow).includes(SECRET));
});

Deno.test("a flow masked with every known secret is not masked again; a new secret is", () => {
  const redactor = new Redactor();
  const flow = failedFlow(`got ${SECRET}`);
  // Noted as masked with what the redactor knows (nothing): nothing new, nothing done.
  noteMasked(flow, redactor.size);
  maskFlow(flow, redactor);
  assert.equal(flow.steps[0].message, `got ${SECRET}`);
  redactor.add(SECRET);
  maskFlow(flow, redactor);
  assert.equal(flow.steps[0].message, "got ***");
});

Deno.test("a spilled step list is read back, masked and kept masked: the spill held it masked already when the run masks first", () => {
  const redactor = new Redactor();
  const flow = failedFlow(`got ${SECRET}`);
  redactor.add(SECRET);
  const kept: Uint8Array[] = [];
  compactFlow(flow);
  // As make_context's compacting does with raw events: masked, then spilled.
  maskFlow(flow, redactor);
  spillSteps(flow, { put: (bytes) => (kept.push(bytes), () => bytes) });
  assert.equal(kept.length, 1);
  assert.ok(!new TextDecoder().decode(kept[0]).includes(SECRET));
  // A secret learnt after the spill: masked at the end of the run, in place of the getter.
  const late = "late-s3cr3t-value";
  const other = failedFlow(`got ${late}`);
  compactFlow(other);
  spillSteps(other, { put: (bytes) => () => bytes });
  redactor.add(late);
  maskFlow(other, redactor);
  assert.equal(other.steps[0].message, "got ***");
  assert.equal(other.steps, other.steps, "no longer read back from the spill each time");
});

Deno.test("runFlows: a value a later flow learns is secret is masked in an earlier flow's result; raw events stay raw", async () => {
  const late = "l4te-s3cret-1a2b3c4d5e";
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    (request) =>
      new URL(request.url).pathname === "/a"
        ? Response.json({ note: late })
        : Response.json({ access_token: late }),
  );
  const url = `http://127.0.0.1:${server.addr.port}`;
  const { loadFlow } = await import("../../lib/load/load_flow.ts");
  const { runFlows } = await import("../../lib/run/flows.ts");
  const flows = () =>
    [["a", "note"], ["b", "access_token"]].map(([name, key]) =>
      loadFlow(
        `name: ${name}\nsteps:\n  - name: s\n    request: {url: "${url}/${name}"}\n    assert: {json: [{path: $.json.${key}, equals: x}]}\n`,
        `${name}.yaml`,
      ).flow!
    );
  try {
    for (const rawEvents of [false, true]) {
      const steps: StepResult[] = [];
      const ended: FlowResult[] = [];
      const result = await runFlows(flows(), {
        runId: "r",
        jobs: 1,
        rawEvents,
        reporter: {
          onStepEnd: (_, step) => void steps.push(structuredClone(step)),
          onFlowEnd: (flow) => void ended.push(structuredClone(flow)),
        },
      });
      assert.equal(result.flows[0].steps[0].assertions[0].actual, "***", `rawEvents: ${rawEvents}`);
      assert.ok(!JSON.stringify(result).includes(late), `rawEvents: ${rawEvents}`);
      // When flow a ended nobody knew the value was secret: its events held it either way.
      assert.ok(JSON.stringify(ended[0]).includes(late));
      // Flow b's response made it a secret: masked events mask it, raw ones do not.
      assert.equal(JSON.stringify(steps[1]).includes(late), rawEvents);
      assert.equal(JSON.stringify(ended[1]).includes(late), rawEvents);
    }
  } finally {
    await server.shutdown();
  }
});

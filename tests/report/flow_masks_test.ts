import assert from "node:assert/strict";
import { FlowMasks } from "../../lib/report/flow_masks.ts";
import { Redactor } from "../../lib/secrets/mod.ts";
import type { AttemptInfo, FlowRef, RequestInfo } from "../../lib/model/events.ts";
import type { FlowResult, StepResult } from "../../lib/model/result.ts";

const SECRET = "s3cr3t-t0ken-value";
const REF: FlowRef = { file: "a.yaml", name: "a" };

function flowWith(text: string): FlowResult {
  return {
    file: "a.yaml",
    name: "a",
    status: "failed",
    started_at: "",
    duration_ms: 1,
    steps: [{ name: "get", status: "failed", message: text } as unknown as StepResult],
  };
}

/** A redactor that counts how often it masks a text. */
function countingRedactor(): { redactor: Redactor; count: () => number } {
  const redactor = new Redactor();
  let n = 0;
  const redact = redactor.redact.bind(redactor);
  redactor.redact = (text: string) => (n++, redact(text));
  return { redactor, count: () => n };
}

Deno.test("every reporter a FlowMasks wraps hears a flow masked, and the flow is masked once for all", async () => {
  const { redactor, count } = countingRedactor();
  redactor.add(SECRET);
  const masks = new FlowMasks(redactor);
  const heard: FlowResult[] = [];
  const a = masks.reporter({ onFlowEnd: (flow) => void heard.push(flow) });
  const b = masks.reporter({ onFlowEnd: (flow) => void heard.push(flow) });
  const flow = flowWith(`got ${SECRET}`);
  await a.onFlowEnd?.(flow);
  const once = count();
  await b.onFlowEnd?.(flow);
  assert.equal(count(), once, "the second reporter got the same masked copy");
  assert.equal(heard[0], heard[1]);
  assert.equal(heard[0].steps[0].message, "got ***");
  assert.equal(flow.steps[0].message, `got ${SECRET}`, "the run's own result is not changed");
  assert.ok(!masks.json(flow).includes(SECRET));
});

Deno.test("a clean flow is the same object, and its JSON is the text its masking read", () => {
  const { redactor, count } = countingRedactor();
  redactor.add(SECRET);
  const masks = new FlowMasks(redactor);
  const flow = flowWith("all good");
  assert.equal(masks.flow(flow), flow);
  const after = count();
  assert.equal(masks.json(flow), JSON.stringify(flow));
  assert.equal(count(), after);
});

Deno.test("a wrapped reporter hears every event masked: URLs, errors, steps", async () => {
  const redactor = new Redactor();
  redactor.add(SECRET);
  const masks = new FlowMasks(redactor);
  const heard: string[] = [];
  const reporter = masks.reporter({
    onRequest: (_, info: RequestInfo) => void heard.push(info.url),
    onAttempt: (_, info: AttemptInfo) => void heard.push(`${info.url} ${info.error}`),
    onStepEnd: (_, step: StepResult) => void heard.push(step.message ?? ""),
  });
  const url = `http://x.test/?token=${SECRET}`;
  await reporter.onRequest?.(REF, { step: "s", attempt: 1, method: "GET", url });
  await reporter.onAttempt?.(REF, {
    step: "s",
    attempt: 1,
    method: "GET",
    url,
    error: `refused ${SECRET}`,
    duration_ms: 1,
  });
  await reporter.onStepEnd?.(REF, flowWith(`got ${SECRET}`).steps[0]);
  assert.deepEqual(heard, [
    "http://x.test/?token=***",
    "http://x.test/?token=*** refused ***",
    "got ***",
  ]);
  assert.equal(reporter.onFlowEnd, undefined, "only the hooks the reporter has");
});

Deno.test("FlowMasks keeps the last few flows only: a run's flows are not kept twice", () => {
  const redactor = new Redactor();
  redactor.add(SECRET);
  const masks = new FlowMasks(redactor);
  const first = flowWith(`got ${SECRET}`);
  const copy = masks.flow(first);
  for (let i = 0; i < 10; i++) masks.flow(flowWith(`other ${i} ${SECRET}`));
  // Forgotten: masked again, into a new copy, as masked as before.
  const again = masks.flow(first);
  assert.notEqual(again, copy);
  assert.deepEqual(again, copy);
});

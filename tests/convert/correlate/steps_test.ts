import assert from "node:assert/strict";
import { newCorrelator } from "../../../lib/convert/correlate/pipeline.ts";
import { addStep } from "../../../lib/convert/correlate/steps.ts";
import { recordsOf } from "../../support/har_records.ts";

Deno.test("addStep names the step, rewrites its request, asserts on its response, records what it hands out", () => {
  const records = recordsOf([
    {
      method: "POST",
      url: "https://a.test/api/orders",
      body: '{"qty":2}',
      status: 201,
      json: { id: "ord_8f3a2c91", qty: 2 },
    },
    { url: "https://a.test/", html: "<html></html>" },
  ]);
  const c = newCorrelator("a");
  addStep(c, [records[0]]);
  addStep(c, [records[1]]);
  const [create, page] = c.steps;
  assert.equal(create.name, "create_order");
  assert.equal(create.noun, "order");
  assert.ok(create.checks.some((k) => k.op === "equals" && k.path[0] === "qty"));
  assert.ok(c.producers.size > 0);
  assert.ok(c.sentSeen.size > 0);
  assert.equal(page.name, "open_home");
});

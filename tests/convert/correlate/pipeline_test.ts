import assert from "node:assert/strict";
import { correlate, newCorrelator } from "../../../lib/convert/correlate/pipeline.ts";
import { recordsOf } from "../../support/har_records.ts";

Deno.test("correlate: an id a response produced is captured where a later request sends it", () => {
  const records = recordsOf([
    {
      method: "POST",
      url: "https://a.test/orders",
      body: "{}",
      status: 201,
      json: { id: "ord_8f3a2c91" },
    },
    { method: "DELETE", url: "https://a.test/orders/ord_8f3a2c91", status: 204 },
  ]);
  const c = correlate(records, records.map((r) => ({ records: [r] })), "a");
  assert.deepEqual(c.steps.map((s) => s.name), ["create_order", "delete_order"]);
  assert.equal(c.steps[1].url, "${vars.base_url}/orders/${steps.create_order.capture.order_id}");
  assert.deepEqual(c.steps[0].captures, [["order_id", { kind: "json", path: ["id"] }]]);
  assert.deepEqual(c.replaced, { tokens: 0, secrets: 0, ids: 1, generated: 0 });
});

Deno.test("correlate without linking (--no-correlate) takes no value from a response", () => {
  const records = recordsOf([
    { method: "POST", url: "https://a.test/orders", body: "{}", json: { id: "ord_8f3a2c91" } },
    { url: "https://a.test/orders/ord_8f3a2c91" },
  ]);
  const c = correlate(records, records.map((r) => ({ records: [r] })), "a", false);
  assert.equal(c.steps[1].url, "${vars.base_url}/orders/ord_8f3a2c91");
  assert.equal(c.steps[0].captures.length, 0);
});

Deno.test("newCorrelator gives the default rules over its own state", () => {
  const c = newCorrelator("b");
  assert.equal(c.sp.varRef("x"), newCorrelator("b").sp.varRef("x"));
  assert.equal(c.rules.producerFor("anything"), undefined);
  assert.equal(c.rules.freshUuid("id", "6f1c2b7e-8d4a-4e3f-9a1b-c5d6e7f80912"), "${RANDOM.UUID}");
  assert.equal(c.replaced.generated, 1);
});

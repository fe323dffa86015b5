import assert from "node:assert/strict";
import { prepareConversion } from "../../lib/convert/har.ts";
import {
  liveText,
  recordedByName,
  restore,
  snapshot,
  startVerification,
} from "../../lib/convert/verify_state.ts";
import { harOf } from "../support/har_records.ts";
import "../support/engines.ts";

const har = harOf([
  {
    method: "POST",
    url: "https://a.test/orders",
    body: "{}",
    status: 201,
    json: { id: "ord_8f3a2c91" },
  },
  { url: "https://a.test/orders/ord_8f3a2c91", headers: [["x-api-key", "k3y-91ab7c"]] },
]);

Deno.test("startVerification finds which response handed out each value a later request sent", () => {
  const prepared = prepareConversion(har, { noCorrelate: true });
  const v = startVerification(prepared, {
    baseUrl: "http://127.0.0.1:9",
    hosts: ["127.0.0.1:9"],
    env: () => undefined,
  });
  try {
    assert.deepEqual([...v.producers.keys()], ["ord_8f3a2c91"]);
    const [p] = v.producers.get("ord_8f3a2c91")!;
    assert.equal(p.index, 0);
    assert.deepEqual(v.probesAt.get(0), [p]);
    assert.equal(liveText(v, p), undefined);
    assert.equal(v.runs, 0);
  } finally {
    v.session.close();
  }
});

Deno.test("recordedByName maps each variable to its recorded value; restore undoes a try", () => {
  const { c } = prepareConversion(har);
  assert.equal(recordedByName(c).get("API_KEY"), "k3y-91ab7c");
  const step = c.steps[1];
  const before = snapshot(c, step);
  step.url = "changed";
  step.uses.add("x");
  c.replaced.ids += 5;
  c.steps[0].captures.push(["extra", { kind: "cookie", name: "x" }]);
  restore(c, step, before);
  assert.equal(step.url, "${vars.base_url}/orders/${steps.create_order.capture.order_id}");
  assert.ok(!step.uses.has("x"));
  assert.equal(c.steps[0].captures.length, 1);
  assert.deepEqual(c.replaced, before.replaced);
});

import assert from "node:assert/strict";
import { prepareConversion } from "../../lib/convert/har.ts";
import { applyRepairs } from "../../lib/convert/verify_repair.ts";
import { liveKey, startVerification } from "../../lib/convert/verify_state.ts";
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
  { url: "https://a.test/orders/ord_8f3a2c91" },
]);

Deno.test("applyRepairs: a value that changed live is sent from its producer's capture", () => {
  const prepared = prepareConversion(har, { noCorrelate: true });
  const { c } = prepared;
  const v = startVerification(prepared, {
    baseUrl: "http://127.0.0.1:9",
    hosts: ["127.0.0.1:9"],
    env: () => undefined,
  });
  try {
    assert.equal(c.steps[1].url, "${vars.base_url}/orders/ord_8f3a2c91");
    const [p] = v.producers.get("ord_8f3a2c91")!;
    v.live.set(liveKey(p), "ord_00000001");
    const done = applyRepairs(v, c.steps[1], new Map([["ord_8f3a2c91", p]]));
    assert.equal(done.length, 1);
    assert.match(
      done[0],
      /^sends \$\{steps\.create_order\.capture\.\w+\}: .* of step "create_order" changed live$/,
    );
    assert.match(
      c.steps[1].url,
      /^\$\{vars\.base_url\}\/orders\/\$\{steps\.create_order\.capture\.\w+\}$/,
    );
    assert.equal(c.steps[0].captures.length, 1);
  } finally {
    v.session.close();
  }
});

Deno.test("applyRepairs changes nothing where the step does not send the value", () => {
  const prepared = prepareConversion(har, { noCorrelate: true });
  const v = startVerification(prepared, {
    baseUrl: "http://127.0.0.1:9",
    hosts: ["127.0.0.1:9"],
    env: () => undefined,
  });
  try {
    const [p] = v.producers.get("ord_8f3a2c91")!;
    v.live.set(liveKey(p), "ord_00000001");
    const first = prepared.c.steps[0];
    const url = first.url;
    assert.deepEqual(applyRepairs(v, first, new Map([["ord_8f3a2c91", p]])), []);
    assert.equal(first.url, url);
    assert.equal(first.captures.length, 0);
  } finally {
    v.session.close();
  }
});

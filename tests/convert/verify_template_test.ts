import assert from "node:assert/strict";
import type { Step } from "../../lib/convert/model.ts";
import { pieces, requestParts, substitute } from "../../lib/convert/verify_template.ts";

Deno.test("pieces splits a template into text and expressions; $${ is text", () => {
  const p = pieces("a $${b} ${ENV.X} c");
  assert.equal(p.length, 3);
  assert.equal((p[1] as { expression: string }).expression, "${ENV.X}");
});

Deno.test("substitute writes a capture where the step sends the value, also inside a variable", () => {
  const step = {
    url: "${vars.base_url}/items/itm_123abc",
    headers: [["authorization", "Bearer ${ENV.API_TOKEN}"]],
    checks: [],
  } as unknown as Step;
  const before = requestParts(step);
  const n = substitute(step, {
    value: "itm_123abc",
    ref: "${steps.a.capture.id}",
    rawRef: "${raw:steps.a.capture.id}",
    variables: new Map(),
    lit: (t) => t,
  });
  assert.equal(n, 1);
  assert.equal(step.url, "${vars.base_url}/items/${steps.a.capture.id}");
  substitute(step, {
    value: "tok_1",
    ref: "${steps.login.capture.token}",
    rawRef: "",
    variables: new Map([["${ENV.API_TOKEN}", "tok_1"]]),
    lit: (t) => t,
  });
  assert.deepEqual(step.headers, [["authorization", "Bearer ${steps.login.capture.token}"]]);
  assert.equal(before.url, "${vars.base_url}/items/itm_123abc");
});

Deno.test("substitute: an id ends at _ (<id>_thumb), a word does not (user in user_name)", () => {
  const sub = (value: string, url: string) => {
    const step = { url, headers: [], checks: [] } as unknown as Step;
    const n = substitute(step, {
      value,
      ref: "${steps.a.capture.v}",
      rawRef: "${raw:steps.a.capture.v}",
      variables: new Map(),
      lit: (t) => t,
    });
    return [n, step.url];
  };
  assert.deepEqual(sub("itm_5f1c0e", "/img/itm_5f1c0e_thumb.png"), [
    1,
    "/img/${steps.a.capture.v}_thumb.png",
  ]);
  assert.deepEqual(sub("4711", "/img/4711_thumb"), [1, "/img/${steps.a.capture.v}_thumb"]);
  assert.deepEqual(sub("4711", "/img/147112"), [0, "/img/147112"]);
  assert.deepEqual(sub("user", "/api?user_name=ann"), [0, "/api?user_name=ann"]);
  assert.deepEqual(sub("itm_5f1c0e", "/img/xitm_5f1c0e"), [0, "/img/xitm_5f1c0e"]);
});

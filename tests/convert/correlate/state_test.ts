import assert from "node:assert/strict";
import { emptyCorrelator, NOT_A_BODY, secretEnv } from "../../../lib/convert/correlate/state.ts";

Deno.test("secretEnv: one name per value, numbered when the base is taken, the value a secret", () => {
  const c = emptyCorrelator("a", true);
  assert.equal(secretEnv(c, "API_TOKEN", "t1", "a token"), "API_TOKEN");
  assert.equal(secretEnv(c, "API_TOKEN", "t2", "another"), "API_TOKEN_2");
  assert.equal(secretEnv(c, "API_TOKEN", "t1", "again"), "API_TOKEN");
  assert.deepEqual([...c.env.keys()], ["API_TOKEN", "API_TOKEN_2"]);
  assert.ok(c.secrets.has("t1") && c.secrets.has("t2"));
});

Deno.test("an empty correlator holds nothing and no rules yet; NOT_A_BODY is no body", () => {
  const c = emptyCorrelator("b", false);
  assert.equal(c.linking, false);
  assert.equal(c.steps.length + c.vars.length + c.env.size + c.notes.length, 0);
  assert.equal(c.rules, undefined);
  assert.deepEqual(NOT_A_BODY, { body: false, mutating: false, login: false, credentials: false });
});

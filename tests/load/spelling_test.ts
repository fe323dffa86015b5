/** Name and token rules (lib/load/spelling.ts). */
import assert from "node:assert/strict";
import { foreignExpression, METHOD, RESERVED } from "../../lib/load/spelling.ts";
import { NAME_PATTERN as NAME } from "../../lib/model/names.ts";
import { loadFlow } from "../../lib/load/load_flow.ts";
import { stepFlowText } from "../support/step_flow.ts";

Deno.test("names, HTTP tokens and reserved names", () => {
  assert.ok(NAME.test("order_id-2") && !NAME.test("2nd") && !NAME.test("a.b"));
  assert.ok(METHOD.test("PATCH") && METHOD.test("x-request-id") && !METHOD.test("a b"));
  assert.ok(RESERVED.has("RUN_ID") && RESERVED.has("steps") && !RESERVED.has("user"));
});

Deno.test("other tools' placeholders are found, with the flowrun spelling", () => {
  assert.equal(
    foreignExpression("{{token}}")?.hint,
    "Write ${token} (a flow var or environment variable; in spelling A ${vars.token} or ${ENV.token}).",
  );
  assert.equal(foreignExpression("/items/{vars.id}")?.hint, "Write ${vars.id}.");
  assert.equal(foreignExpression("${{token}}"), undefined);
  const text = stepFlowText([], '{url: "http://x.test/{{id}}"}');
  const [p] = loadFlow(text, "t.yaml").problems;
  assert.equal(p.code, "foreign-expression");
  assert.equal(p.column, 35);
  assert.equal(p.length, 6);
});

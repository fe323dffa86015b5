/** The one name rule (lib/model/names.ts) and the places that share it. */
import assert from "node:assert/strict";
import { isName, NAME_PATTERN, nameHint } from "../../lib/model/names.ts";
import { loadFlow } from "../../lib/load/load_flow.ts";
import { loadStepFlow, stepFlowText } from "../support/step_flow.ts";

Deno.test("a name starts with a letter or _ and goes on with letters, digits, _ and -", () => {
  for (const good of ["a", "_", "user_id", "order-id-2", "X9"]) assert.ok(isName(good), good);
  for (const bad of ["", "2nd", "-a", "a.b", "a b", "é", "a$"]) assert.ok(!isName(bad), bad);
  assert.equal(NAME_PATTERN.source, "^[A-Za-z_][A-Za-z0-9_-]*$");
});

Deno.test("the hint names the allowed characters and an example; var names say how to start", () => {
  assert.equal(nameHint("order_id"), 'Use letters, digits, "_" and "-", e.g. order_id.');
  assert.equal(
    nameHint("user_id", true),
    'Use letters, digits, "_" and "-", starting with a letter, e.g. user_id.',
  );
});

Deno.test("a flow's var and capture names are held to the rule, with its hint", () => {
  const vars = loadFlow(`vars: {a.b: 1}\n${stepFlowText()}`, "v.yaml").problems;
  assert.deepEqual(vars.map((p) => [p.code, p.message, p.hint]), [
    ["bad-name", 'Var name "a.b" cannot be referenced.', nameHint("user_id", true)],
  ]);
  const captures = loadStepFlow(["capture: {2nd: $.json.id}"]).problems;
  assert.deepEqual(captures.map((p) => [p.message, p.hint]), [
    ['Capture name "2nd" cannot be referenced.', nameHint("order_id")],
  ]);
});

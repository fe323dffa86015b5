/**
 * A `pm.test` whose title is made of text and a variable (`"validate result" +
 * pm.iterationData.get("result")`, `"Status " + pm.environment.get("code")`) names a check
 * Newman runs like any other: the title only labels it. A public project's own data-driven
 * suite names every check so; the whole test stayed a comment, its check not run. The check is
 * now translated, named with the variable as Postman writes it (`validate result{{result}}`),
 * since a check's name is not expanded.
 */
import assert from "node:assert/strict";
import { translateScript } from "../../lib/convert/postman/script/translate.ts";

const variable = (n: string) => ({ k: "var" as const, name: n, expr: `\${vars.${n}}` });

Deno.test("postman made title: text joined with a variable names the check, which is translated", () => {
  const t = translateScript(
    'pm.test("validate result" + pm.environment.get("result"), function () {\n' +
      "  pm.expect(pm.response.json().result).to.eql(pm.environment.get('result'));\n});",
    variable,
  );
  assert.deepEqual(t.untranslated, []);
  assert.deepEqual(t.checks, [{
    cond: { path: "$.json.result", op: "equals", value: "${vars.result}" },
    name: "validate result{{result}}",
  }]);
});

Deno.test("postman made title: a title read from the response stays untranslated", () => {
  const t = translateScript(
    'pm.test("id " + pm.response.json().id, () => pm.response.to.have.status(200));',
    variable,
  );
  assert.equal(t.checks.length, 0);
  assert.equal(t.untranslated.length, 1);
});

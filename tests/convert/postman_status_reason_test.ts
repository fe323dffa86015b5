/**
 * `pm.response.status` is the reason phrase ("OK"), and legacy `responseCode.name`
 * the same; a script comparing it was left as a comment. A standard reason names one
 * status code (Postman fills it from the code when the server sends none), so the
 * comparison is a check of the code; any other use stays a comment.
 */
import assert from "node:assert/strict";
import { translateScript } from "../../lib/convert/postman/script/translate.ts";

const unknownVar = () => ({ k: "lit" as const, value: undefined });
const conds = (source: string) => {
  const t = translateScript(source, unknownVar);
  return { t, conds: t.checks.map((c) => "cond" in c ? c.cond : c) };
};

Deno.test("postman status reason: pm.response.status compared with a reason is a check of its code", () => {
  const { t, conds: c } = conds(
    'pm.test("ok", () => pm.expect(pm.response.status).to.equal("OK"));\n' +
      'pm.test("not found", () => pm.expect(pm.response.status).to.not.eql("Not Found"));\n' +
      'tests["created"] = responseCode.name === "Created";',
  );
  assert.equal(t.untranslatedAssertions, 0, JSON.stringify(t.untranslated));
  assert.deepEqual(c, [
    { path: "$.status", op: "equals", value: 200 },
    { path: "$.status", op: "notEquals", value: 404 },
    { path: "$.status", op: "equals", value: 201 },
  ]);
});

Deno.test("postman status reason: a reason flowrun does not know, or another use, stays a comment", () => {
  const { t } = conds(
    'pm.test("teapot", () => pm.expect(pm.response.status).to.equal("I Am A Teapot Indeed"));\n' +
      'pm.test("has one", () => pm.expect(pm.response.status).to.include("O"));',
  );
  assert.equal(t.translated, 0);
  assert.equal(t.untranslatedAssertions, 2);
  assert.ok(!JSON.stringify(t.checks).includes("reason"), JSON.stringify(t.checks));
});

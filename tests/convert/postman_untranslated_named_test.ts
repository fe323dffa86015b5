/**
 * A check flowrun cannot express was only counted per request ("1 untranslated"):
 * the summary now names the idiom beside the request, so a user knows which
 * Postman check the flow lacks without reading the comments: `parseInt(…)`,
 * `Number(…)`, `parseFloat(…)` before a comparison (flowrun compares a number as
 * the response holds it), `pm.iterationData` (read in a way flowrun cannot express),
 * and a second schema check on one step (flowrun checks one schema per step).
 */
import assert from "node:assert/strict";
import { convertPostman, formatPostmanSummary } from "../../lib/convert/postman/mod.ts";

const V21 = "https://schema.getpostman.com/json/collection/v2.1.0/collection.json";

function converted(exec: string[]) {
  return convertPostman(JSON.stringify({
    info: { name: "Named", schema: V21 },
    item: [{
      name: "Counted",
      event: [{ listen: "test", script: { exec } }],
      request: { method: "GET", url: "http://127.0.0.1:9/a", header: [] },
    }],
  }));
}

Deno.test("postman untranslated named: the summary names each idiom flowrun cannot check, with its request", () => {
  const { summary } = converted([
    'pm.test("n", () => pm.expect(parseInt(pm.response.json().n)).to.be.within(1, 10));',
    'pm.test("m", () => pm.expect(Number(pm.response.json().m)).to.eql(3));',
    'pm.test("d", () => pm.expect(pm.iterationData.get("k")).to.be.undefined);',
    'pm.test("s1", () => pm.response.to.have.jsonSchema({ type: "object" }));',
    'pm.test("s2", () => pm.response.to.have.jsonSchema({ type: "object", required: ["a"] }));',
  ]);
  const text = formatPostmanSummary(summary, "out");
  const line = text.split("\n").find((l) => l.trim().startsWith("Counted:"));
  assert.ok(line, text);
  assert.match(line, /parseInt\(…\), Number\(…\) or parseFloat\(…\) before a comparison/);
  assert.match(line, /pm\.iterationData/);
  assert.match(line, /a second JSON schema check/);
});

Deno.test("postman untranslated named: a request whose checks are all translated names nothing", () => {
  const { summary } = converted(['pm.test("ok", () => pm.response.to.have.status(200));']);
  const line = formatPostmanSummary(summary, "out").split("\n").find((l) =>
    l.trim().startsWith("Counted:")
  );
  assert.equal(line?.trim(), "Counted: 1 translated, 0 untranslated");
});

Deno.test("postman untranslated named: a second check of the same schema (jsonSchema, then tv4) is the one check, translated", () => {
  const { summary } = converted([
    'const schema = { type: "object", required: ["a"] };',
    'pm.test("s1", () => pm.response.to.have.jsonSchema(schema));',
    'pm.test("s2", () => pm.expect(tv4.validate(pm.response.json(), schema)).to.be.true);',
  ]);
  assert.deepEqual(summary.reports.map((r) => [r.translated, r.untranslated, r.why]), [
    [2, 0, []],
  ]);
});

/**
 * Checks a request's test script makes through a helper the collection's (or
 * a folder's) script defines: a course's forum suite (Flask, measured by hand,
 * docs/real-servers.md) defines `v = { return(...keys) { pm.test(…) }, … }` in
 * its collection pre-request script and each request's test script only calls
 * `v.return("post_id", …)`. Newman ran 62 checks; the summary said "0
 * translated, 0 untranslated", as if the suite checked nothing. Each call of
 * such a helper now counts as an untranslated check, named in the summary.
 */
import assert from "node:assert/strict";
import { convertPostman } from "../../lib/convert/postman/mod.ts";

const V21 = "https://schema.getpostman.com/json/collection/v2.1.0/collection.json";
const script = (listen: string, ...exec: string[]) => ({ listen, script: { exec } });

const HELPERS = [
  "v = {",
  "  status(code) { pm.test(`status ${code}`, () => pm.expect(pm.response.code).to.equal(code)); },",
  "  keys(...keys) { pm.test('keys', () => keys.forEach((k) => pm.expect(pm.response.json()).to.have.property(k))); },",
  "};",
  "function log(x) { console.log(x); }",
];

function collection(tests: string[]) {
  return JSON.stringify({
    info: { name: "Forum", schema: V21 },
    event: [script("prerequest", ...HELPERS)],
    item: [{
      name: "Create post",
      event: [script("test", ...tests)],
      request: { method: "POST", url: "http://127.0.0.1:9/post" },
    }],
  });
}

Deno.test("postman helper checks: a check made in a helper the collection script defines is counted untranslated, and named", () => {
  const { summary } = convertPostman(
    collection(["v.status(200);", "v.keys('id', 'key');", "log('done');"]),
  );
  const report = summary.reports.find((r) => r.request.includes("Create post"));
  assert.ok(report, JSON.stringify(summary.reports));
  assert.equal(report.translated, 0);
  assert.equal(report.untranslated, 2, JSON.stringify(report));
  assert.ok(
    report.why?.some((w) => w.includes("v.status") && w.includes("v.keys")),
    JSON.stringify(report.why),
  );
  assert.ok(!report.why?.some((w) => w.includes("log")), JSON.stringify(report.why));
});

Deno.test("postman helper checks: a helper that checks nothing adds no untranslated check", () => {
  const { summary } = convertPostman(
    collection(["log('done');", "pm.test('ok', () => pm.response.to.have.status(200));"]),
  );
  const report = summary.reports.find((r) => r.request.includes("Create post"));
  assert.ok(report);
  assert.equal(report.translated, 1);
  assert.equal(report.untranslated, 0, JSON.stringify(report));
});

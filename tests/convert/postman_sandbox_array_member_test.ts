/**
 * `pm.expect(response).to.have.property('count')` where the answer is a list: Newman's sandbox
 * extends `Array.prototype` (Sugar's `count`, `first`, `last`, `sum`, … beside the standard
 * `length`, `map`, `keys`), and chai's `property` finds a name on the prototype, so on any list
 * the check passes in Newman (measured with Newman 6.2.1). A messaging API's collection checks a
 * nested route's page that way, and the route answers a bare list. The translation looked for a
 * member `count` in the list, which is not there, and failed where Newman passes. Such a name on
 * a list now holds; on an object it is still the member looked for.
 */
import assert from "node:assert/strict";
import { convertPostman } from "../../lib/convert/postman/mod.ts";
import { pageChecks, runCollectionAgainst } from "../support/postman_run.ts";

/** A collection reading `/page`, checking that it and its `items` have named properties. */
const collection = pageChecks([
  "pm.test('Has a count', () => {",
  "    const response = pm.response.json();",
  "    pm.expect(response).to.have.property('count');",
  "});",
  "pm.test('Has a first', () => {",
  "    pm.expect(pm.response.json().items).to.have.property('first');",
  "});",
  "pm.test('Has a total', () => {",
  "    pm.expect(pm.response.json()).to.have.property('total');",
  "});",
]);

function runAgainst(body: unknown) {
  return runCollectionAgainst(collection, () => Response.json(body));
}

Deno.test("postman sandbox array member: a list has `count`, as in Newman", async () => {
  const { run, flow } = await runAgainst([{ id: 1 }]);
  assert.doesNotMatch(flow.text, /# untranslated/, flow.text);
  const out = run.stdout + run.stderr;
  assert.doesNotMatch(out, /✘ Has a count/, out + flow.text);
  // `total` is no name of a list's prototype: looked for as a member, it is not there.
  assert.match(out, /✘ Has a total/, out);
});

Deno.test("postman sandbox array member: an object's member of that name is looked for", async () => {
  const { run, flow } = await runAgainst({ count: 2, total: 2, items: { first: 1 } });
  assert.equal(run.code, 0, run.stdout + run.stderr + flow.text);
});

Deno.test("postman sandbox array member: an object without it fails, as in Newman", async () => {
  const { run, flow } = await runAgainst({ total: 0, items: {} });
  const out = run.stdout + run.stderr;
  assert.match(out, /✘ Has a count/, out + flow.text);
  assert.match(out, /✘ Has a first/, out);
  assert.doesNotMatch(out, /✘ Has a total/, out);
});

Deno.test("postman sandbox array member: a nested list has `first`", async () => {
  const { run, flow } = await runAgainst({ count: 1, total: 1, items: [] });
  assert.equal(run.code, 0, run.stdout + run.stderr + flow.text);
});

Deno.test("postman sandbox array member: negated, the member alone is looked for", () => {
  const c = pageChecks([
    "pm.test('no count', () => pm.expect(pm.response.json()).to.not.have.property('count'));",
  ])("http://127.0.0.1:9");
  const flow = convertPostman(JSON.stringify(c)).files.find((f) => f.path.endsWith(".yaml"))!.text;
  assert.match(flow, /\{ path: \$\.json\.count, exists: false, name: no count \}/, flow);
});

/**
 * An upper bound on a member's length, `pm.expect(response.results.length).to.be.at.most(20)`,
 * where the answer has no such member: Newman's sandbox reads `.length` of `undefined`, a
 * TypeError, and the test fails. A messaging API's collection checks a nested route's page that
 * way, and the route answers a bare list. The translation checked only that no 21st element was
 * there, which also holds when there is no list at all, so the test passed where Newman's fails.
 * A bound from above on something that is not text now also checks that it is a list.
 */
import assert from "node:assert/strict";
import { pageChecks, runCollectionAgainst } from "../support/postman_run.ts";

/** A collection reading `/page` and bounding its `results`' length from above, twice. */
const collection = pageChecks([
  "pm.test('At most two results', () => {",
  "    const response = pm.response.json();",
  "    pm.expect(response.results.length).to.be.at.most(2);",
  "});",
  "pm.test('Fewer than three results', () => {",
  "    pm.expect(pm.response.json().results.length).to.be.below(3);",
  "});",
]);

function runAgainst(body: unknown) {
  return runCollectionAgainst(collection, () => Response.json(body));
}

Deno.test("postman length bound: a list within it passes, as in Newman", async () => {
  const { run, flow } = await runAgainst({ results: [1, 2] });
  assert.doesNotMatch(flow.text, /# untranslated/, flow.text);
  assert.equal(run.code, 0, run.stdout + run.stderr + flow.text);
});

Deno.test("postman length bound: text within it passes, as in Newman", async () => {
  const { run, flow } = await runAgainst({ results: "ab" });
  assert.equal(run.code, 0, run.stdout + run.stderr + flow.text);
});

Deno.test("postman length bound: a list past it fails, as in Newman", async () => {
  const { run, flow } = await runAgainst({ results: [1, 2, 3] });
  assert.notEqual(run.code, 0, run.stdout + run.stderr + flow.text);
});

Deno.test("postman length bound: no such member (Newman's TypeError) fails both tests", async () => {
  const { run, flow } = await runAgainst([{ id: 1 }]);
  assert.notEqual(run.code, 0, run.stdout + run.stderr + flow.text);
  const out = run.stdout + run.stderr;
  assert.match(out, /✘ At most two results/, out);
  assert.match(out, /✘ Fewer than three results/, out);
});

Deno.test("postman length bound: a member that is no list nor text fails", async () => {
  const { run, flow } = await runAgainst({ results: { a: 1 } });
  assert.notEqual(run.code, 0, run.stdout + run.stderr + flow.text);
});

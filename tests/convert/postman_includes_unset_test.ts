/**
 * A text's `includes` of a variable nothing sets: converting a collection without the
 * environment file its runs pass (the variable then has no value, and Newman's
 * `pm.environment.get` reads `undefined`) stopped the converter with an internal error, where an
 * earlier version wrote the flows: `p.name.includes(pm.environment.get("name"))` inside
 * `list.every(…)` became a `contains` check with no value, which no YAML can say. Seen on a
 * public Express API's own Newman suite converted from its collection alone. What
 * `includes(undefined)` tests depends on what it is called on (a text looks for the word
 * `undefined`, a list for a missing element), which the converter cannot know, so the line stays
 * a comment, as `to.include(undefined)` already does, and the rest of the collection converts.
 */
import assert from "node:assert/strict";
import { parse } from "yaml";
import { convertPostman } from "../../lib/convert/postman/mod.ts";

const V21 = "https://schema.getpostman.com/json/collection/v2.1.0/collection.json";

function collection(tests: string[]): string {
  return JSON.stringify({
    info: { name: "Includes unset", schema: V21 },
    item: tests.map((line, i) => ({
      name: `Read ${i}`,
      event: [{ listen: "test", script: { exec: ["const json = pm.response.json();", line] } }],
      request: { method: "GET", url: "http://127.0.0.1:9/items", header: [] },
    })),
  });
}

const LINES = [
  "pm.test('every', () => { pm.expect(json.data.every(p => p.name.includes(pm.environment.get('name')))).to.be.true; });",
  "pm.test('one', () => { pm.expect(json.name.includes(pm.environment.get('name'))).to.be.true; });",
  "pm.test('has', () => { pm.expect(json.name.has(pm.collectionVariables.get('name'))).to.be.true; });",
  "pm.test('index', () => { pm.expect(json.name.indexOf(pm.variables.get('name')) > -1).to.be.true; });",
];

Deno.test("postman includes unset: a variable with no value in includes(…) converts, the line a comment", () => {
  for (const line of LINES) {
    const { files, summary } = convertPostman(
      collection([line, "pm.response.to.have.status(200);"]),
    );
    const yaml = files.filter((f) => f.path.endsWith(".yaml"));
    assert.equal(yaml.length, 1, line);
    const flow = parse(yaml[0].text) as { steps: unknown[] };
    assert.equal(flow.steps.length, 2, line);
    const [first, second] = summary.reports;
    assert.equal(first.translated, 0, line);
    assert.equal(first.untranslated, 1, line);
    assert.equal(second.translated, 1, line);
    assert.match(yaml[0].text, /# .*includes|# .*has|# .*indexOf/, line);
  }
});

Deno.test("postman includes unset: with the variable's value the same line is a contains check", () => {
  const { files, summary } = convertPostman(
    collection([LINES[0]]),
    JSON.stringify({ values: [{ key: "name", value: "Head", enabled: true }] }),
  );
  assert.equal(summary.reports[0].translated, 1);
  const text = files.find((f) => f.path.endsWith(".yaml"))!.text;
  assert.match(text, /contains: "\$\{vars\.name\}"/);
});

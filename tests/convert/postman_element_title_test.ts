/**
 * A test per element of a list, named after it:
 * `json.forEach(el => { pm.test("Test data type of the " + el.name, () => {…}); console.log(el); })`
 * (a public project's own collection, measured by hand: each list's types). Newman runs one test
 * per element whatever its title holds; the title only labels it. The loop stayed a comment, since
 * a title reading the response was not text. A title reading the loop's element is now the
 * check's name with that part shown as its path (`Test data type of the <@.name>`), and the checks
 * are the group over every element the same loop with a literal title gives: it passes when every
 * element passes, and fails on the one Newman's failing test names.
 */
import assert from "node:assert/strict";
import { convertPostman } from "../../lib/convert/postman/mod.ts";
import { runCli } from "../support/cli.ts";
import { runNewman } from "../support/newman_counts.ts";
import { newmanThenFlow } from "../support/newman_then_flow.ts";

const V21 = "https://schema.getpostman.com/json/collection/v2.1.0/collection.json";

const TESTS = [
  "const jsonData = pm.response.json();",
  "jsonData.forEach((element) => {",
  "  pm.test('Test data type of the ' + element.name, () => {",
  '    pm.expect(element).to.be.an("object");',
  '    pm.expect(element.id).to.be.a("number");',
  "  });",
  "  console.log(element);",
  "});",
  "for (const row of jsonData) {",
  '  pm.test(`Row ${row.id} is named`, function () { pm.expect(row.name).to.be.a("string"); });',
  "}",
];

function collection(base: string) {
  return {
    info: { name: "Element titles", schema: V21 },
    variable: [{ key: "baseUrl", value: base }],
    item: [{
      name: "List",
      event: [{ listen: "test", script: { exec: TESTS } }],
      request: { method: "GET", url: "{{baseUrl}}/products" },
    }],
  };
}

/** Three products; `bad` gives the second a text id, as a faulty server would. */
function products() {
  const state = { bad: false };
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, () =>
    Response.json([
      { id: 1, name: "tomato" },
      { id: state.bad ? "2" : 2, name: "lettuce" },
      { id: 3, name: "potato" },
    ]));
  return { state, url: `http://127.0.0.1:${server.addr.port}`, close: () => server.shutdown() };
}

Deno.test("postman element title: a test per element named after it checks every element", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-pm-element-title-" });
  const server = products();
  try {
    const { counts, summary } = await newmanThenFlow(dir, collection(server.url), server.url);
    assert.deepEqual([counts.assertions, counts.failedAssertions], [6, 0]);
    const flow = await Deno.readTextFile(`${dir}/flows/1_element_titles.yaml`);
    assert.doesNotMatch(flow, /# untranslated/, flow);
    assert.match(flow, /name: Test data type of the <@\.name>/, flow);
    assert.match(flow, /name: Row <@\.id> is named/, flow);
    // One element of another type fails one of Newman's tests, and the flow's check.
    server.state.bad = true;
    const bad = await runNewman(`${dir}/collection.json`, { baseUrl: server.url });
    assert.equal(bad.failedAssertions, 1);
    const run = await runCli(summary.match(/^Run: flowrun (.*)$/m)![1].split(" "));
    assert.notEqual(run.code, 0, run.stdout);
    assert.match(run.stdout, /✘ Test data type of the <@\.name>.*\n?.*number/, run.stdout);
    assert.doesNotMatch(run.stdout, /✘ Row/, run.stdout);
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("postman element title: a title reading the response outside a loop stays a comment", () => {
  const c = collection("http://127.0.0.1:9");
  c.item[0].event[0].script.exec = [
    "const json = pm.response.json();",
    'pm.test("Id " + json.id, () => pm.expect(json.id).to.be.a("number"));',
  ];
  const flow = convertPostman(JSON.stringify(c)).files.find((f) => f.path.endsWith(".yaml"))!.text;
  assert.match(flow, /# untranslated[^]*"Id " \+ json\.id/, flow);
});

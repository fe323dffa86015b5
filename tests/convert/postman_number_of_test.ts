/**
 * Two kinds of check a public project's own collection held (measured by hand, see
 * docs/real-servers.md) that stayed comments:
 *
 * - a variable read as a number before a comparison,
 *   `pm.expect(json.id).to.eql(Number(pm.environment.get("createdId")))`, in every spelling
 *   (`Number`, `parseInt(x)`, `parseInt(x, 10)`, `parseFloat`, a `const` holding it, `===` under
 *   `to.be.true`, `tests[…] =`, `above(…)`), whatever produced the value: a JSON number an answer
 *   held, a header's text, a collection variable's text;
 * - one answer field compared with another, `pm.expect(json.count).to.eql(json.data.length)`
 *   (either side a length, either order, `===` under `to.be.true`, `not.eql`).
 *
 * Both are checks the runner can make: a number compared with a variable's value read as a number
 * (`gte` and `lte` take a numeric text), and two parts of one answer compared in a JSONPath filter.
 * Newman is the reference: the same checks pass on a right answer and the same ones fail on a bent
 * one.
 */
import assert from "node:assert/strict";
import { convertPostman } from "../../lib/convert/postman/mod.ts";
import { runCli } from "../support/cli.ts";
import { runNewman } from "../support/newman_counts.ts";
import { newmanThenFlow } from "../support/newman_then_flow.ts";
import { createThenRead, failingChecks } from "../support/postman_items.ts";

const READ_TESTS = [
  "const json = pm.response.json();",
  'const expected = Number(pm.environment.get("itemId"));',
  'pm.test("id Number", () => pm.expect(json.id).to.eql(Number(pm.environment.get("itemId"))));',
  'pm.test("id parseInt", () => pm.expect(json.id).to.equal(parseInt(pm.environment.get("itemId"))));',
  'pm.test("id parseInt 10", () => pm.expect(json.id).to.eql(parseInt(pm.environment.get("itemId"), 10)));',
  'pm.test("id const", () => pm.expect(json.id).to.eql(expected));',
  'pm.test("id header", () => pm.expect(json.id).to.eql(parseFloat(pm.environment.get("headerId"))));',
  'pm.test("id true", () => pm.expect(json.id === Number(pm.environment.get("headerId"))).to.be.true);',
  'tests["id tests"] = json.id === Number(pm.environment.get("itemId"));',
  'pm.test("count text", () => pm.expect(json.count).to.eql(parseInt(pm.collectionVariables.get("expectedCount"), 10)));',
  'pm.test("above", () => pm.expect(json.count).to.be.above(Number(pm.collectionVariables.get("least"))));',
  'pm.test("count length", () => pm.expect(json.count).to.eql(json.data.length));',
  'pm.test("length count", () => pm.expect(json.data.length).to.equal(json.count));',
  'pm.test("count strict", () => pm.expect(json.count === json.data.length).to.be.true);',
  'pm.test("a b", () => pm.expect(json.a).to.eql(json.b));',
  'pm.test("a not c", () => pm.expect(json.a).to.not.eql(json.c));',
];

/** A create whose answer gives the id as a JSON number and as a header's text, then a read. */
const collection = (base: string) =>
  createThenRead(base, {
    name: "Numbers",
    variables: { expectedCount: "3", least: "2" },
    keep: [
      "const made = pm.response.json();",
      'pm.environment.set("itemId", made.id);',
      'pm.environment.set("headerId", pm.response.headers.get("X-Item-Id"));',
    ],
    createPath: "/items",
    read: ["Read", "/items/{{itemId}}"],
    checks: READ_TESTS,
  });

/** Makes item 7; `bent` answers the read with another id, a wrong count and a ≠ b. */
function itemServer() {
  const state = { bent: false };
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    if (req.method === "POST") {
      return Response.json({ id: 7 }, { status: 201, headers: { "x-item-id": "7" } });
    }
    const body = state.bent
      ? { id: 8, count: 2, data: ["x", "y", "z"], a: "p", b: "q", c: "p" }
      : { id: 7, count: 3, data: ["x", "y", "z"], a: "p", b: "p", c: "r" };
    return Response.json(body);
  });
  return { state, url: `http://127.0.0.1:${server.addr.port}`, close: () => server.shutdown() };
}

Deno.test("postman number of: a variable read as a number and two answer fields are checked as Newman does", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-pm-number-of-" });
  const server = itemServer();
  try {
    const { counts, summary } = await newmanThenFlow(dir, collection(server.url), server.url);
    assert.equal(counts.failedAssertions, 0, JSON.stringify(counts));
    assert.equal(counts.assertions, 14);
    const flow = await Deno.readTextFile(`${dir}/flows/1_numbers.yaml`);
    assert.doesNotMatch(flow, /# untranslated/, flow);
    assert.match(summary, /14 translated, 0 untranslated/, summary);
    // A bent answer fails the same checks in both runners.
    server.state.bent = true;
    const bent = await runNewman(`${dir}/collection.json`, { baseUrl: server.url });
    const run = await runCli(summary.match(/^Run: flowrun (.*)$/m)![1].split(" "));
    assert.notEqual(run.code, 0, run.stdout);
    const names = failingChecks(run.stdout + run.stderr);
    const expected = [
      "id Number",
      "id parseInt",
      "id parseInt 10",
      "id const",
      "id header",
      "id true",
      "id tests",
      "count text",
      "above",
      "count length",
      "length count",
      "count strict",
      "a b",
      "a not c",
    ];
    assert.deepEqual([...names].sort(), expected.sort(), run.stdout);
    assert.equal(bent.failedAssertions, expected.length, JSON.stringify(bent));
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("postman number of: what cannot be said stays a comment", () => {
  const c = collection("http://127.0.0.1:9");
  c.item[1].event[0].script.exec = [
    "const json = pm.response.json();",
    // Another radix, a negated numeric equality, and a sum of two fields: no check says them.
    'pm.test("hex", () => pm.expect(json.id).to.eql(parseInt(pm.environment.get("itemId"), 16)));',
    'pm.test("not id", () => pm.expect(json.id).to.not.eql(Number(pm.environment.get("itemId"))));',
    'pm.test("sum", () => pm.expect(json.count).to.eql(json.a + json.b));',
  ];
  const { files } = convertPostman(JSON.stringify(c));
  const flow = files.find((f) => f.path.endsWith(".yaml"))!.text;
  assert.match(flow, /untranslated[^]*16[^]*not\.eql[^]*json\.a \+ json\.b/, flow);
  assert.doesNotMatch(flow, /name: (hex|not id|sum)/, flow);
});

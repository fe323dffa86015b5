/**
 * A schema whose `items` is a list, `{"type": "array", "items": [{…}]}`, as the JSON-to-schema
 * tools Postman users paste from write it (a public project's own collection, measured by hand:
 * every list's check). In draft 4 and 7, which Postman's validators read, a list of `items` checks
 * the list's first elements, one schema each, and `additionalItems` the rest; flowrun checks draft
 * 2020-12, whose words for the same are `prefixItems` and `items`. The schema stayed a comment.
 * It is now carried over in 2020-12's words, so the verdicts are Newman's: the first element is
 * checked, a second of another shape passes, and `additionalItems: false` refuses a longer list.
 */
import assert from "node:assert/strict";
import { convertPostman } from "../../lib/convert/postman/mod.ts";
import { runCli } from "../support/cli.ts";
import { runNewman } from "../support/newman_counts.ts";
import { newmanThenFlow } from "../support/newman_then_flow.ts";

const V21 = "https://schema.getpostman.com/json/collection/v2.1.0/collection.json";

const ROW = { type: "object", properties: { id: { type: "integer" } }, required: ["id"] };

/** One GET of the list checked against `schema` by `check` (Postman's validator or tv4). */
function item(name: string, schema: unknown, check: string) {
  return {
    name,
    event: [{
      listen: "test",
      script: { exec: [`const schema = ${JSON.stringify(schema)};`, check] },
    }],
    request: { method: "GET", url: "{{baseUrl}}/list" },
  };
}

function collection(base: string) {
  const chai = (name: string) =>
    `pm.test("${name}", () => pm.response.to.have.jsonSchema(schema));`;
  return {
    info: { name: "Tuple schemas", schema: V21 },
    variable: [{ key: "baseUrl", value: base }],
    item: [
      item("First", { type: "array", items: [ROW] }, chai("first")),
      item(
        "Rest",
        { type: "array", items: [ROW], additionalItems: { type: "object" } },
        chai("rest"),
      ),
      item(
        "Tv4",
        { $schema: "http://json-schema.org/draft-04/schema#", type: "array", items: [ROW, ROW] },
        'tests["tv4"] = tv4.validate(pm.response.json(), schema);',
      ),
      item(
        "Closed",
        { type: "array", items: [ROW, ROW, {}], additionalItems: false },
        chai("closed"),
      ),
    ],
  };
}

/** How many schema checks a run's console output says failed. */
const violations = (out: string) => (out.match(/violation of the inline schema/g) ?? []).length;

/** The list the server answers: `bad` makes its first element one the schemas refuse. */
function listServer() {
  const state = { bad: false, long: false };
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, () => {
    const first = state.bad ? { id: "one" } : { id: 1 };
    const rest = state.long ? [{ id: 2 }, { id: 3 }, { id: 4 }] : [{ id: 2, name: "x" }];
    return Response.json([first, ...rest]);
  });
  return { state, url: `http://127.0.0.1:${server.addr.port}`, close: () => server.shutdown() };
}

Deno.test("postman schema tuple: a list of items checks the first elements, as Newman's validators do", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-pm-schema-tuple-" });
  const server = listServer();
  try {
    const { counts, summary } = await newmanThenFlow(dir, collection(server.url), server.url);
    assert.deepEqual([counts.assertions, counts.failedAssertions], [4, 0]);
    const flow = await Deno.readTextFile(`${dir}/flows/1_tuple_schemas.yaml`);
    assert.doesNotMatch(flow, /# untranslated/, flow);
    assert.match(flow, /prefixItems/, flow);
    const run = summary.match(/^Run: flowrun (.*)$/m)![1].split(" ");
    // A first element of another shape fails every check, for Newman and for the flow.
    server.state.bad = true;
    const bad = await runNewman(`${dir}/collection.json`, { baseUrl: server.url });
    assert.equal(bad.failedAssertions, 4);
    const flowBad = await runCli(run);
    assert.equal(violations(flowBad.stdout), 4, flowBad.stdout);
    // A list longer than `additionalItems: false` allows fails that check alone.
    Object.assign(server.state, { bad: false, long: true });
    const long = await runNewman(`${dir}/collection.json`, { baseUrl: server.url });
    assert.equal(long.failedAssertions, 1);
    const flowLong = await runCli(run);
    assert.equal(violations(flowLong.stdout), 1, flowLong.stdout);
    assert.match(flowLong.stdout, /✘ closed/, flowLong.stdout);
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("postman schema tuple: additionalItems beside a single items schema is ignored, as in draft 4", () => {
  const schema = { type: "array", items: ROW, additionalItems: false };
  const c = collection("http://127.0.0.1:9");
  c.item = [
    item("Single", schema, 'pm.test("single", () => pm.response.to.have.jsonSchema(schema));'),
  ];
  const flow = convertPostman(JSON.stringify(c)).files.find((f) => f.path.endsWith(".yaml"))!.text;
  assert.doesNotMatch(flow, /# untranslated|additionalItems|prefixItems/, flow);
  assert.match(flow, /items:/, flow);
});

/**
 * A schema checked through `pm.expect(…)` on the response's JSON (a public
 * project's own collection for Restful Booker, measured by hand, see
 * docs/real-servers.md: `pm.expect(pm.response.json()).to.have.jsonSchema(createResponseSchema)`,
 * its schema built from another `const`). Postman's chai has `jsonSchema` on any value, not only
 * as `pm.response.to.have.jsonSchema`; the check stayed a comment. Every spelling on the whole
 * body — the JSON read in the call, kept in a `const` first, `JSON.parse(responseBody)`, `to.be`
 * or `to.have`, a schema nesting another `const` — is now the flow's schema check, with Newman's
 * verdicts: green on a body that fits, each one failing on a body that does not.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";
import { runNewman } from "../support/newman_counts.ts";
import { newmanThenFlow } from "../support/newman_then_flow.ts";

const V21 = "https://schema.getpostman.com/json/collection/v2.1.0/collection.json";

const SCHEMAS = [
  'const inner = { type: "object", required: ["name"], properties: { name: { type: "string" } } };',
  'const outer = { type: "object", required: ["id", "item"], properties: { id: { type: "integer" }, item: inner } };',
];

const SPELLINGS: [string, string][] = [
  ["called", "pm.expect(pm.response.json()).to.have.jsonSchema(outer);"],
  ["kept", "const json = pm.response.json();\npm.expect(json).to.be.jsonSchema(outer);"],
  ["parsed", "pm.expect(JSON.parse(responseBody)).to.have.jsonSchema(outer);"],
];

function collection(base: string) {
  return {
    info: { name: "Expect schemas", schema: V21 },
    variable: [{ key: "baseUrl", value: base }],
    item: SPELLINGS.map(([name, check]) => ({
      name,
      event: [{
        listen: "test",
        script: { exec: [...SCHEMAS, `pm.test("${name}", () => {`, check, "});"] },
      }],
      request: { method: "GET", url: "{{baseUrl}}/item" },
    })),
  };
}

/** Answers the item; `bad` makes its nested name a number, which the schema refuses. */
function itemServer() {
  const state = { bad: false };
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    () => Response.json({ id: 7, item: { name: state.bad ? 12 : "tea" } }),
  );
  return { state, url: `http://127.0.0.1:${server.addr.port}`, close: () => server.shutdown() };
}

/** How many schema checks a run's console output says failed. */
const violations = (out: string) => (out.match(/violation of the inline schema/g) ?? []).length;

Deno.test("postman expect schema: pm.expect(body).to.have.jsonSchema(…) is the flow's schema check, with Newman's verdicts", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-pm-expect-schema-" });
  const server = itemServer();
  try {
    const { counts, summary } = await newmanThenFlow(dir, collection(server.url), server.url);
    assert.deepEqual([counts.assertions, counts.failedAssertions], [3, 0]);
    const flow = await Deno.readTextFile(`${dir}/flows/1_expect_schemas.yaml`);
    assert.doesNotMatch(flow, /# untranslated/, flow);
    assert.equal((flow.match(/schema:/g) ?? []).length, 3, flow);
    server.state.bad = true;
    const bad = await runNewman(`${dir}/collection.json`, { baseUrl: server.url });
    assert.equal(bad.failedAssertions, 3);
    const flowBad = await runCli(summary.match(/^Run: flowrun (.*)$/m)![1].split(" "));
    assert.equal(violations(flowBad.stdout), 3, flowBad.stdout);
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});

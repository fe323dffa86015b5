/**
 * `convert openapi` on a YAML document that shares parts with merge keys
 * (`<<: *commonErrors`). PowerDNS 4.7 serves its document at `/api/docs` as
 * YAML unless JSON is asked for, both kept in tests/real/fixtures/pdns/
 * as it served them; the YAML gives every operation its error answers so.
 * Read as YAML 1.2 (no merge keys), each operation had a response named
 * `<<` and none of the 400, 404, 422 and 500 the JSON form has, so the
 * upgraded document the `openapi:` checks read lost them. The two forms now
 * convert to the same document and the same flows.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";

const FIXTURES = new URL("../real/fixtures/pdns/", import.meta.url).pathname;

/** Converts a fixture; the upgraded document and the flows' texts (their header line left out). */
async function convert(name: string) {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-openapi-merge-" });
  try {
    await Deno.copyFile(`${FIXTURES}${name}`, `${dir}/${name}`);
    const run = await runCli(["convert", "openapi", `${dir}/${name}`, "-o", `${dir}/flows`]);
    assert.equal(run.code, 0, run.stderr);
    const bundled = JSON.parse(await Deno.readTextFile(`${dir}/flows/openapi.bundled.json`));
    const flows = new Map<string, string>();
    for (const entry of Deno.readDirSync(`${dir}/flows`)) {
      if (!entry.name.endsWith(".yaml")) continue;
      const text = await Deno.readTextFile(`${dir}/flows/${entry.name}`);
      flows.set(entry.name, text.split("\n").slice(1).join("\n"));
    }
    return { bundled, flows };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("convert openapi: YAML merge keys are applied: PowerDNS's YAML converts as its JSON does", async () => {
  const yaml = await convert("api_docs.yaml");
  const json = await convert("api_docs.json");
  const create = yaml.bundled.paths["/servers/{server_id}/zones"].post.responses;
  assert.deepEqual(Object.keys(create).sort(), ["201", "400", "404", "422", "500"]);
  assert.doesNotMatch(JSON.stringify(yaml.bundled), /"<<"/);
  assert.deepEqual(yaml.bundled, json.bundled);
  assert.deepEqual(yaml.flows, json.flows);
});

Deno.test('convert openapi: a "<<" key of a JSON document is data and stays', async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-openapi-merge-" });
  try {
    const doc = {
      openapi: "3.0.3",
      info: { title: "Shift", version: "1" },
      paths: {
        "/ops": {
          post: {
            requestBody: {
              content: { "application/json": { example: { "<<": { bits: 2 }, bits: 1 } } },
            },
            responses: { "204": { description: "done" } },
          },
        },
      },
    };
    await Deno.writeTextFile(`${dir}/api.json`, JSON.stringify(doc));
    const run = await runCli(["convert", "openapi", `${dir}/api.json`, "-o", `${dir}/flows`]);
    assert.equal(run.code, 0, run.stderr);
    const flow = await Deno.readTextFile(`${dir}/flows/shift.yaml`);
    assert.match(flow, /"<<":\n\s+bits: 2\n\s+bits: 1/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

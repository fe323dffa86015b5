/**
 * An equality written the other way round, the known value as chai's subject and the response
 * part as the expected value: `pm.expect(pm.environment.get("name")).to.eql(json.name)`, as a
 * booking collection checks that a read returns what its create sent. flowrun read only a response
 * part as the subject, so every such check stayed a comment (0 of 7 translated in the measured
 * collection) and the summary blamed the one `Number(…)` among them. chai's `eql` and `equal` are
 * symmetric: each is now the check of the response part against the value, with Newman's verdict
 * (run here on the same server), a deliberately wrong one failing in both.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";
import { runNewman } from "../support/newman_counts.ts";
import { jsonPoster } from "../support/postman_items.ts";

const V21 = "https://schema.getpostman.com/json/collection/v2.1.0/collection.json";

const CHECKS = [
  "var json = pm.response.json();",
  'pm.test("name", () => pm.expect(pm.environment.get("name")).to.eql(json.name));',
  'pm.test("price", () => pm.expect(Number(pm.environment.get("price"))).to.eql(json.price));',
  'pm.test("deep", () => pm.expect(pm.environment.get("name")).to.deep.equal(json.name));',
  'pm.test("not", () => pm.expect(pm.environment.get("name")).to.not.eql(json.other));',
  'pm.test("wrong", () => pm.expect("someone else").to.eql(json.name));',
];

/** A create that keeps a made name and price, then a read whose checks are written turned. */
function collection(base: string) {
  const post = jsonPoster("{{baseUrl}}");
  return {
    info: { name: "Turned", schema: V21 },
    variable: [{ key: "baseUrl", value: base }],
    item: [
      post("Create", "/items", '{"name": "{{name}}", "price": {{price}}}', [{
        listen: "prerequest",
        script: {
          exec: [
            "pm.environment.set('name', pm.variables.replaceIn('{{$randomFirstName}}'));",
            "pm.environment.set('price', pm.variables.replaceIn('{{$randomInt}}'));",
          ],
        },
      }]),
      {
        name: "Read",
        event: [{ listen: "test", script: { exec: CHECKS } }],
        request: { method: "GET", url: "{{baseUrl}}/items/last" },
      },
    ],
  };
}

/** A server that keeps the last item posted and gives it back, with an `other` field. */
function store() {
  let last: Record<string, unknown> = {};
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    if (req.method === "POST") last = await req.json();
    return Response.json({ ...last, other: "x" }, { status: req.method === "POST" ? 201 : 200 });
  });
  return { url: `http://127.0.0.1:${server.addr.port}`, close: () => server.shutdown() };
}

Deno.test("postman turned expect: pm.expect(value).to.eql(part) is the part's check, with Newman's verdict", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-pm-turned-" });
  const server = store();
  try {
    const file = `${dir}/turned.json`;
    await Deno.writeTextFile(file, JSON.stringify(collection(server.url)));
    const counts = await runNewman(file, { baseUrl: server.url });
    assert.deepEqual([counts.assertions, counts.failedAssertions], [5, 1]);
    const converted = await runCli(["convert", "postman", file, "-o", `${dir}/flows`]);
    const summary = converted.stdout + converted.stderr;
    assert.equal(converted.code, 0, summary);
    assert.match(summary, /Assertions: 5 translated, 0 untranslated/, summary);
    const line = summary.match(/^Run: flowrun (.*)$/m)![1].split(" ");
    const run = await runCli([...line, "--report-json", `${dir}/r.json`]);
    const report = JSON.parse(await Deno.readTextFile(`${dir}/r.json`));
    const checks = report.flows[0].steps.flatMap((s: { assertions?: unknown[] }) =>
      s.assertions ?? []
    ).filter((c: { name?: string }) => c.name) as { name?: string; passed: boolean }[];
    const failed = checks.filter((c) => !c.passed).map((c) => c.name);
    assert.deepEqual(failed, ["wrong"], run.stdout + JSON.stringify(checks));
    assert.equal(checks.length, 5, JSON.stringify(checks));
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});

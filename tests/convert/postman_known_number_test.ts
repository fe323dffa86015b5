/**
 * A check a public project's own collection held (measured by hand, see docs/real-servers.md)
 * that stayed a comment: an update's pre-request script sets a variable to a number written in
 * the script (`pm.environment.set("price", 999)`), the body sends `{{price}}`, and the test
 * compares the answer with that variable read as a number,
 * `pm.expect(json.data.price).to.eql(Number(pm.environment.get("price")))`.
 *
 * The variable's value is known when converting (the script wrote it), so `Number(…)`,
 * `parseFloat(…)`, `parseInt(…)` (any radix) and `+x` of it are known too: JavaScript's own
 * result, a number the check compares with. A value they make no finite number of (`Number("abc")`
 * is `NaN`) stays a comment. Newman is the reference: the same checks pass on a right answer and
 * the same ones fail on a bent one.
 */
import assert from "node:assert/strict";
import { convertPostman } from "../../lib/convert/postman/mod.ts";
import { runCli } from "../support/cli.ts";
import { runNewman } from "../support/newman_counts.ts";
import { newmanThenFlow } from "../support/newman_then_flow.ts";
import { failingChecks } from "../support/postman_items.ts";

const SETS = [
  'pm.environment.set("price", 999);',
  'pm.collectionVariables.set("floor", "42");',
  'pm.collectionVariables.set("mask", "ff");',
];

const CHECKS = [
  "const json = pm.response.json();",
  'const expected = +pm.environment.get("price");',
  'pm.test("price Number", () => pm.expect(json.data.price).to.eql(Number(pm.environment.get("price"))));',
  'pm.test("price parseFloat", () => pm.expect(json.data.price).to.equal(parseFloat(pm.environment.get("price"))));',
  'pm.test("price const", () => pm.expect(json.data.price).to.eql(expected));',
  'pm.test("above floor", () => pm.expect(json.data.price).to.be.above(parseInt(pm.collectionVariables.get("floor"), 10)));',
  'pm.test("below mask", () => pm.expect(json.data.price).to.be.below(parseInt(pm.collectionVariables.get("mask"), 16) * 4));',
  'tests["price tests"] = json.data.price === Number(pm.environment.get("price"));',
];

/** An update whose pre-request script sets the price it sends and whose test reads it back. */
function collection(base: string, checks = CHECKS) {
  return {
    info: {
      name: "Prices",
      schema: "https://schema.getpostman.com/json/collection/v2.1.0/collection.json",
    },
    variable: [{ key: "baseUrl", value: base }],
    item: [{
      name: "Update",
      event: [
        { listen: "prerequest", script: { exec: SETS } },
        { listen: "test", script: { exec: checks } },
      ],
      request: {
        method: "PATCH",
        url: "{{baseUrl}}/items/1",
        header: [{ key: "Content-Type", value: "application/json" }],
        body: { mode: "raw", raw: '{"price": {{price}}}' },
      },
    }],
  };
}

/** Answers the update with the price it was sent; `bent` answers one less. */
function priceServer() {
  const state = { bent: false, seen: [] as unknown[] };
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const body = await req.json();
    state.seen.push(body);
    return Response.json({ data: { price: state.bent ? body.price - 1 : body.price } });
  });
  return { state, url: `http://127.0.0.1:${server.addr.port}`, close: () => server.shutdown() };
}

Deno.test("postman known number: a variable the script set, read as a number, is checked as Newman does", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-pm-known-number-" });
  const server = priceServer();
  try {
    const { counts, summary } = await newmanThenFlow(dir, collection(server.url), server.url);
    assert.equal(counts.failedAssertions, 0, JSON.stringify(counts));
    assert.equal(counts.assertions, 6);
    const flow = await Deno.readTextFile(`${dir}/flows/1_prices.yaml`);
    assert.doesNotMatch(flow, /# untranslated/, flow);
    assert.match(summary, /6 translated, 0 untranslated/, summary);
    assert.deepEqual(server.state.seen, [{ price: 999 }, { price: 999 }]);
    // A bent answer fails the comparisons with the price in both runners; the bounds still hold.
    server.state.bent = true;
    const bent = await runNewman(`${dir}/collection.json`, { baseUrl: server.url });
    const run = await runCli(summary.match(/^Run: flowrun (.*)$/m)![1].split(" "));
    assert.notEqual(run.code, 0, run.stdout);
    const expected = ["price Number", "price parseFloat", "price const", "price tests"];
    assert.deepEqual([...failingChecks(run.stdout + run.stderr)].sort(), expected.sort());
    assert.equal(bent.failedAssertions, expected.length, JSON.stringify(bent));
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("postman known number: a value no finite number is made of stays a comment", () => {
  const c = collection("http://127.0.0.1:9", [
    "const json = pm.response.json();",
    'pm.environment.set("word", "abc");',
    'pm.test("nan", () => pm.expect(json.data.price).to.eql(Number(pm.environment.get("word"))));',
  ]);
  const { files } = convertPostman(JSON.stringify(c));
  const flow = files.find((f) => f.path.endsWith(".yaml"))!.text;
  assert.match(flow, /untranslated[^]*Number\(pm\.environment\.get\("word"\)\)/, flow);
  assert.doesNotMatch(flow, /name: nan/, flow);
});

Deno.test("postman known number: a counter is no value known now, whatever its spelling; a default is", () => {
  const c = collection("http://127.0.0.1:9", [
    "pm.test('ok', () => pm.response.to.have.status(200));",
  ]);
  c.item[0].request.url = "{{baseUrl}}/items?n={{n}}&m={{m}}&k={{k}}&j={{j}}&t={{t}}";
  c.item[0].event[0].script.exec = [
    'pm.environment.set("n", (pm.environment.get("n") || 0) + 1);',
    'pm.environment.set("m", Number(pm.environment.get("m") || 0) + 1);',
    'const k = parseInt(pm.environment.get("k") || "0", 10) + 1;',
    'pm.environment.set("k", k);',
    'let j = Number(pm.environment.get("j") || 0);',
    "j += 1;",
    'pm.environment.set("j", j);',
    'pm.environment.set("t", pm.environment.get("t") || "abc");',
    'pm.environment.set("price", 999);',
  ];
  const { files, summary } = convertPostman(JSON.stringify(c));
  const flow = files.find((f) => f.path.endsWith(".yaml"))!.text;
  // Each pass of the script counts on from the last: the summary names both counters.
  assert.deepEqual(summary.broken?.map((b) => [b.name, b.readers]), [
    ["n", ["Update"]],
    ["m", ["Update"]],
    ["k", ["Update"]],
    ["j", ["Update"]],
  ]);
  assert.match(
    flow,
    /\/items\?n=\$\{vars\.n\}&m=\$\{vars\.m\}&k=\$\{vars\.k\}&j=\$\{vars\.j\}&t=abc/,
    flow,
  );
});

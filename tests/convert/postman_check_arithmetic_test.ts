/**
 * Arithmetic in a check (`pm.expect(json.total).to.eql(price * 2)`, `… .eql(json.items.length +
 * 1)`). The expected value was a comment whatever its operands: now arithmetic on numbers known
 * when converting (literals, a `const` of one) is worked out as JavaScript works it out, and
 * the check is translated; arithmetic on a value known only when the flow runs (a variable, a
 * part of the answer) stays a comment, counted, and the summary names it beside the request. A
 * small server answers a total; a second answers another.
 */
import assert from "node:assert/strict";
import { convertPostman, formatPostmanSummary } from "../../lib/convert/postman/mod.ts";
import { runCli } from "../support/cli.ts";

const V21 = "https://schema.getpostman.com/json/collection/v2.1.0/collection.json";

const KNOWN = [
  "const json = pm.response.json();",
  "const price = 10;",
  'pm.test("double", () => pm.expect(json.total).to.eql(price * 2));',
  'pm.test("less", () => pm.expect(json.total).to.be.below(100 - 1));',
  'pm.test("half", () => pm.expect(json.half).to.eql(price / 4));',
  'pm.test("rest", () => pm.expect(json.rest).to.eql(7 % 4));',
  'tests["sum"] = json.total === 4 * 5;',
];
const NOT_KNOWN = [
  "const json = pm.response.json();",
  'pm.test("var", () => pm.expect(json.total).to.eql(pm.environment.get("price") * 2));',
  'pm.test("count", () => pm.expect(json.items.length).to.eql(json.count + 1));',
];

async function run(total: number) {
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    () => Response.json({ total, half: 2.5, rest: 3, items: [1, 2], count: 1 }),
  );
  const dir = await Deno.makeTempDir();
  try {
    const { files, summary } = convertPostman(JSON.stringify({
      info: { name: "Sums", schema: V21 },
      variable: [{ key: "price", value: "10" }],
      item: [["known", KNOWN], ["not known", NOT_KNOWN]].map(([name, exec]) => ({
        name,
        event: [{ listen: "test", script: { exec } }],
        request: { method: "GET", url: `http://127.0.0.1:${server.addr.port}/order`, header: [] },
      })),
    }));
    const flow = files.find((f) => f.path.endsWith(".yaml"))!;
    await Deno.writeTextFile(`${dir}/${flow.path}`, flow.text);
    const out = await runCli(["run", `${dir}/${flow.path}`]);
    return { summary, said: formatPostmanSummary(summary, dir), out, flow: flow.text };
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("postman arithmetic in a check: numbers known when converting are worked out and checked", async () => {
  const good = await run(20);
  assert.deepEqual(good.summary.reports.map((r) => [r.translated, r.untranslated]), [
    [5, 0],
    [0, 2],
  ]);
  assert.equal(good.out.code, 0, good.out.stdout + good.out.stderr + good.flow);
  const bad = await run(21);
  assert.equal(bad.out.code, 1);
  assert.match(bad.out.stdout, /double/);
  assert.match(bad.out.stdout, /sum/);
});

Deno.test("postman arithmetic in a check: on values known only when the flow runs, it is named", async () => {
  const { said } = await run(20);
  assert.match(said, /not known: 0 translated, 2 untranslated \([^)]*arithmetic/, said);
});

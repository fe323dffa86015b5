/**
 * `parseInt(pm.environment.get("price"))` compared with the answer, where a pre-request script
 * set `price` from `pm.variables.replaceIn("{{$randomInt}}")`: Postman keeps the text "417",
 * so a check of the JSON number parses it first. The flow var is `${RANDOM.DIGITS_3}`, a number
 * already, but `parseInt(…)` before a comparison stayed a comment. A value a script makes is
 * of one kind in every run, so `parseInt`, `Number` and `parseFloat` of a whole number made so
 * are the var itself (as of a data column every row gives as one). `json.paid.toString()`
 * against a variable stays a comment, and the summary now names that idiom beside the count.
 * A small server echoes the booking and adds one to the price (a check written to fail).
 */
import assert from "node:assert/strict";
import { convertPostman, formatPostmanSummary } from "../../lib/convert/postman/mod.ts";
import { runCli } from "../support/cli.ts";

const V21 = "https://schema.getpostman.com/json/collection/v2.1.0/collection.json";

const PRE = [
  'var price = pm.variables.replaceIn("{{$randomInt}}")',
  'pm.environment.set("price", price)',
  'pm.environment.set("paid", pm.variables.replaceIn("{{$randomBoolean}}"))',
];

const TESTS = [
  "var json = pm.response.json()",
  'pm.test("parseInt", () => pm.expect(json.price).to.eql(parseInt(pm.environment.get("price"))))',
  'pm.test("radix 10", () => pm.expect(json.price).to.eql(parseInt(pm.environment.get("price"), 10)))',
  'pm.test("Number", () => pm.expect(json.price).to.eql(Number(pm.environment.get("price"))))',
  'pm.test("one more (fails)", () => pm.expect(json.next).to.eql(parseInt(pm.environment.get("price"))))',
  'pm.test("paid", () => pm.expect(json.paid.toString()).to.eql(pm.environment.get("paid")))',
];

Deno.test("postman parseInt(made number): the var itself, checked as a number; toString named", async () => {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const body = await req.json();
    return Response.json({ ...body, next: body.price + 1 });
  });
  const dir = await Deno.makeTempDir();
  try {
    const { files, summary } = convertPostman(JSON.stringify({
      info: { name: "Made", schema: V21 },
      item: [{
        name: "Book",
        event: [
          { listen: "prerequest", script: { exec: PRE } },
          { listen: "test", script: { exec: TESTS } },
        ],
        request: {
          method: "POST",
          url: `http://127.0.0.1:${server.addr.port}/booking`,
          header: [{ key: "Content-Type", value: "application/json" }],
          body: { mode: "raw", raw: '{"price": {{price}}, "paid": {{paid}}}' },
        },
      }],
    }));
    const said = formatPostmanSummary(summary, dir);
    assert.match(said, /4 translated, 1 untranslated \(x\.toString\(\) of a response part/, said);
    const flow = files.find((f) => f.path.endsWith(".yaml"))!;
    await Deno.writeTextFile(`${dir}/${flow.path}`, flow.text);
    const run = await runCli(["run", `${dir}/${flow.path}`]);
    assert.equal(run.code, 1, run.stdout + run.stderr + flow.text);
    assert.match(run.stdout, /one more \(fails\)/);
    assert.doesNotMatch(run.stdout, /✘ (parseInt|radix 10|Number):/, run.stdout);
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});

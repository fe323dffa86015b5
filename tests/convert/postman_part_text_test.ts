/**
 * A response part's text compared with a literal: `pm.expect(json.id.toString()).to.eql("5")`,
 * `String(json.id) === "5"`, `tests[…] = json.paid.toString() === "true"`. Each was a comment,
 * the check lost (its type would change: `5` is no `"5"`). The text of a number, a boolean or a
 * string is that literal exactly when the value is the literal itself or the number or boolean
 * it writes, so the check is `anyOf: ["5", 5]` (its negation: neither). What flowrun cannot say
 * of a part's text (its length, a match, a variable's value, whose type is not known here) stays
 * a comment, counted and named in the summary. A small server answers a number and a boolean,
 * then text; a second answers the wrong number.
 */
import assert from "node:assert/strict";
import { convertPostman } from "../../lib/convert/postman/mod.ts";
import { runCli } from "../support/cli.ts";

const V21 = "https://schema.getpostman.com/json/collection/v2.1.0/collection.json";

const CHECKS = [
  "const json = pm.response.json();",
  'pm.test("id text", () => pm.expect(json.id.toString()).to.eql("5"));',
  'pm.test("id String", () => pm.expect(String(json.id)).to.equal("5"));',
  'pm.test("id ===", () => pm.expect(String(json.id) === "5").to.be.true);',
  'tests["paid"] = json.paid.toString() === "true";',
  'pm.test("not 6", () => pm.expect(json.id.toString()).to.not.eql("6"));',
  'if (json.id.toString() !== "7") { pm.test("not 7", () => pm.response.to.have.status(200)); }',
];
const NOT_SAID = [
  "const json = pm.response.json();",
  'pm.test("length", () => pm.expect(json.id.toString().length).to.eql(1));',
  'pm.test("var", () => pm.expect(json.id.toString()).to.eql(pm.environment.get("id")));',
  'tests["has"] = json.id.toString().includes("5");',
  'tests["re"] = /^5$/.test(json.id.toString());',
];

function collection(base: string) {
  const get = (name: string, path: string, exec: string[]) => ({
    name,
    event: [{ listen: "test", script: { exec } }],
    request: { method: "GET", url: `${base}${path}`, header: [] },
  });
  return JSON.stringify({
    info: { name: "Text of a part", schema: V21 },
    item: [get("number", "/n", CHECKS), get("text", "/t", CHECKS), get("not said", "/n", NOT_SAID)],
  });
}

async function run(id: number): Promise<{ code: number; failed: string[]; text: string }> {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const text = new URL(req.url).pathname === "/t";
    return Response.json(text ? { id: String(id), paid: "true" } : { id, paid: true });
  });
  const dir = await Deno.makeTempDir();
  try {
    const { files, summary } = convertPostman(collection(`http://127.0.0.1:${server.addr.port}`));
    assert.deepEqual(summary.reports.map((r) => [r.translated, r.untranslated]), [
      [6, 0],
      [6, 0],
      [0, 4],
    ]);
    const flow = files.find((f) => f.path.endsWith(".yaml"))!;
    assert.doesNotMatch(flow.text, /text:/, flow.text);
    await Deno.writeTextFile(`${dir}/${flow.path}`, flow.text);
    const out = await runCli(["run", `${dir}/${flow.path}`, "--report-json", `${dir}/r.json`]);
    const report = JSON.parse(await Deno.readTextFile(`${dir}/r.json`));
    type Step = { name: string; assertions: { name?: string; passed: boolean }[] };
    const failed = report.flows[0].steps.map((s: Step) =>
      `${s.name}: ${s.assertions.filter((a) => !a.passed).map((a) => a.name).join(", ")}`
    );
    return { code: out.code, failed, text: flow.text + out.stdout + out.stderr };
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("postman part text: a number's or a boolean's toString() compared with a literal is checked as Newman checks it", async () => {
  const good = await run(5);
  assert.equal(good.code, 0, good.text);
  // Newman 6.2.1 on the same collection and answers, by hand: these four fail on each, no other.
  const bad = await run(6);
  const four = "id text, id String, id ===, not 6";
  assert.deepEqual(bad.failed, [`number: ${four}`, `text: ${four}`, "not_said: "], bad.text);
});

Deno.test("postman part text: what a flow cannot say of a part's text is named in the summary", () => {
  const { summary } = convertPostman(collection("http://127.0.0.1:9"));
  const text = JSON.stringify(summary.reports[2]);
  assert.match(text, /toString\(\) of a response part/, text);
});

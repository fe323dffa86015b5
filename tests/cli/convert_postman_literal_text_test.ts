/**
 * A script that compares the response with text holding `${` (Gravitee's
 * page templates, `"${api.visibility}"`) compares it with that text: flowrun
 * reads every string in a check as a template, so the converter writes the
 * literal `${` as `$${`. Before, the flow it wrote failed `validate`
 * ("Unknown expression") and nothing ran. Every idiom that turns a script
 * literal into a check's operand is covered: equality (pm.* and legacy),
 * include, members, oneOf, a property's value, a header's value, the body,
 * a jsonBody path's value, a regular expression, `indexOf`, `has`; a
 * variable the script reads is still its expression.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";

const TEXT = "${api.name} costs $${price}";

const SCRIPT = [
  `const j = pm.response.json();`,
  `pm.test("eql", () => pm.expect(j.text).to.eql(${JSON.stringify(TEXT)}));`,
  `tests["legacy"] = j.text === ${JSON.stringify(TEXT)};`,
  `pm.test("include", () => pm.expect(j.list).to.include("\${a}"));`,
  `pm.test("members", () => pm.expect(j.list).to.have.members(["\${a}", "b"]));`,
  `pm.test("oneOf", () => pm.expect(j.text).to.be.oneOf([${JSON.stringify(TEXT)}, "x"]));`,
  `pm.test("property", () => pm.expect(j).to.have.property("text", ${JSON.stringify(TEXT)}));`,
  `pm.test("header", () => pm.response.to.have.header("X-Tpl", "\${h}"));`,
  `pm.test("jsonBody", () => pm.response.to.have.jsonBody("text", ${JSON.stringify(TEXT)}));`,
  `pm.test("match", () => pm.expect(j.text).to.match(/^\\$\\{api/));`,
  `pm.test("indexOf", () => pm.expect(j.text.indexOf("\${api")).to.not.eql(-1));`,
  `tests["has"] = responseBody.has("\${api.name}");`,
  `pm.test("var", () => pm.expect(j.id).to.eql(pm.collectionVariables.get("id")));`,
];

const COLLECTION = {
  info: {
    name: "Literal text",
    schema: "https://schema.getpostman.com/json/collection/v2.1.0/collection.json",
  },
  variable: [{ key: "base", value: "http://127.0.0.1:9" }, { key: "id", value: "7" }],
  item: [{
    name: "Page",
    event: [{ listen: "test", script: { exec: SCRIPT } }],
    request: { method: "GET", url: "{{base}}/page" },
  }],
};

Deno.test("convert postman: a script's literal ${ in a check is compared as text; validate passes and the run is green", async () => {
  let wrong = false;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, () =>
    Response.json(
      { text: wrong ? "other" : TEXT, list: ["${a}", "b"], id: "7" },
      { headers: { "X-Tpl": "${h}" } },
    ));
  const dir = await Deno.makeTempDir();
  try {
    const file = `${dir}/c.postman_collection.json`;
    await Deno.writeTextFile(file, JSON.stringify(COLLECTION));
    const conv = await runCli(["convert", "postman", file, "-o", `${dir}/out`]);
    assert.equal(conv.code, 0, conv.stderr);
    assert.match(conv.stderr, /^Assertions: 12 translated, 0 untranslated/m);
    const flow = await Deno.readTextFile(`${dir}/out/1_literal_text.yaml`);
    assert.ok(flow.includes("$${api.name} costs $$${price}"), flow);
    assert.ok(flow.includes("${vars.id}"), flow);
    const validate = await runCli(["validate", `${dir}/out`]);
    assert.equal(validate.code, 0, validate.stdout + validate.stderr);
    const env = { BASE: `http://127.0.0.1:${server.addr.port}` };
    const green = await runCli(["run", `${dir}/out`], { env });
    assert.equal(green.code, 0, green.stdout + green.stderr);
    wrong = true;
    const red = await runCli(["run", `${dir}/out`], { env });
    assert.equal(red.code, 1, red.stdout);
    assert.match(red.stdout, /expected "\$\{api\.name\} costs \$\$\{price\}", got "other"/);
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("convert postman: pm.expect on typeof x or x.indexOf(v) is a type or contains check, not a path validate refuses", async () => {
  const exec = [
    "const j = pm.response.json();",
    "pm.test('contains', () => pm.expect(j.text.indexOf('api')).to.not.eql(-1));",
    "pm.test('type', () => pm.expect(typeof j.text).to.eql('string'));",
    "pm.test('at', () => pm.expect(j.text.indexOf('api')).to.eql(3));",
  ];
  const collection = {
    ...COLLECTION,
    item: [{ ...COLLECTION.item[0], event: [{ listen: "test", script: { exec } }] }],
  };
  let text: unknown = "an api";
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    () => Response.json({ text }),
  );
  const dir = await Deno.makeTempDir();
  try {
    const file = `${dir}/c.postman_collection.json`;
    await Deno.writeTextFile(file, JSON.stringify(collection));
    const conv = await runCli(["convert", "postman", file, "-o", `${dir}/out`]);
    assert.equal(conv.code, 0, conv.stderr);
    // The position check has no flowrun spelling: it stays a comment.
    assert.match(conv.stderr, /^Assertions: 2 translated, 1 untranslated/m);
    const flow = await Deno.readTextFile(`${dir}/out/1_literal_text.yaml`);
    assert.ok(!/path: '?(?:indexOf|typeof):/.test(flow), flow);
    assert.match(flow, /# {3}pm\.expect\(j\.text\.indexOf\('api'\)\)\.to\.eql\(3\)/);
    const validate = await runCli(["validate", `${dir}/out`]);
    assert.equal(validate.code, 0, validate.stdout + validate.stderr);
    const env = { BASE: `http://127.0.0.1:${server.addr.port}` };
    assert.equal((await runCli(["run", `${dir}/out`], { env })).code, 0);
    text = 42;
    const red = await runCli(["run", `${dir}/out`], { env });
    assert.equal(red.code, 1, red.stdout);
    assert.match(red.stdout, /contains/);
    assert.match(red.stdout, /type/);
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});

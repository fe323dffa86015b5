/**
 * Loops whose turns a script writes itself. A tester's store collection checks every listed
 * element for each of a written list of keys (`const keys = ["id", "name"]; for (const item of
 * pm.response.json()) for (const key of keys) pm.expect(item[key]).to.not.eql(undefined)`), and
 * reads three items back with `for (let i = 1; i < 4; i++) pm.sendRequest(base + "/items/" + i,
 * (err, res) => { switch (i) { case 1: want = "…"; break; … } pm.test(`… ${i} …`, …) })`. Both
 * were comments: three checks and nine requests Newman makes were missing, the nine reads named
 * "not converted". Now a loop over a written list, or a counted loop whose bounds are known,
 * is its body once per turn, the variable bound to the turn's value (in a callback too, which
 * runs later with its own turn's `let`, and a list the test's own `const` holds), and a `switch`
 * on a value known now is the case it picks.
 * Proven against Newman on a server the test starts: the same requests in the same order.
 */
import assert from "node:assert/strict";
import { translateScript } from "../../lib/convert/postman/script/translate.ts";
import { runNewman } from "../support/newman_counts.ts";
import { runCli } from "../support/cli.ts";

const V21 = "https://schema.getpostman.com/json/collection/v2.1.0/collection.json";
const nothing = () => ({ k: "lit" as const, value: undefined });

Deno.test("postman written loop: a written list of keys checked on every element is a group per key", () => {
  const t = translateScript(
    "pm.test('keys', () => {\n  const keys = ['id', 'label'];\n" +
      "  for (const item of pm.response.json().items) {\n" +
      "    for (const key of keys) { pm.expect(item[key]).to.not.eql(undefined); }\n  }\n});",
    nothing,
  );
  assert.deepEqual(t.untranslated, []);
  assert.deepEqual(t.checks, [{
    at: "$.json.items[*]",
    checks: [
      { cond: { path: "$.id", op: "exists", value: true }, name: "keys" },
      { cond: { path: "$.label", op: "exists", value: true }, name: "keys" },
    ],
  }]);
  const named = translateScript(
    "for (let n = 3; n > 1; n--) pm.test('has ' + n, () => pm.expect(pm.response.json().sizes).to.include(n));",
    nothing,
  );
  assert.deepEqual(named.checks.map((c) => "name" in c && c.name), ["has 3", "has 2"]);
});

Deno.test("postman written loop: a callback is given its turn and its test's const, not a name it declares", () => {
  const t = translateScript(
    "pm.test('reads', function () {\n  const want = ['a', 'b'];\n  const label = 'x';\n" +
      "  for (let i = 1; i <= 2; i++) pm.sendRequest('http://h/' + i, (e, r) => {\n" +
      "    const label = 'own';\n    pm.expect(r.json().n).to.eql(want[i - 1] + label);\n  });\n});",
    nothing,
  );
  const callbacks = (t.sides ?? []).map((s) => s.callback);
  assert.equal(callbacks.length, 2, JSON.stringify(t));
  for (const line of ['const want = ["a","b"];\n', "const i = 2;\n"]) {
    assert.ok(callbacks[1].includes(line), callbacks[1]);
  }
  assert.doesNotMatch(callbacks[1], /const label = "x"/);
});

Deno.test("postman written loop: a body left untranslated, an unknown bound or a var callback stay one comment", () => {
  for (
    const source of [
      "for (const k of ['a', 'b']) pm.test(k, () => pm.expect(pm.response.json()[k] * 2).to.eql(4));",
      "for (let i = 0; i < pm.response.json().n; i++) pm.test('t', () => pm.expect(1).to.eql(1));",
      "for (let i = 0; i < 3; i++) { i += 1; pm.test('t', () => pm.expect(1).to.eql(1)); }",
      "for (var i = 1; i < 3; i++) pm.sendRequest('http://x/' + i, (e, r) => pm.test('t' + i, () => {}));",
    ]
  ) {
    const t = translateScript(source, nothing);
    assert.equal(t.translated, 0, source);
    assert.equal(t.untranslated.length, 1, `${source}\n${t.untranslated.join("\n")}`);
  }
});

Deno.test("postman written loop: turns building one value together stay as written, as before", () => {
  const t = translateScript(
    'let s = ""; const abc = "abcdef";\n' +
      "for (let i = 0; i < 5; i++) { s += abc.charAt(Math.floor(Math.random() * abc.length)); }\n" +
      'pm.environment.set("name", s);',
    nothing,
  );
  assert.deepEqual(t.sets, [], JSON.stringify(t.sets));
  assert.deepEqual(t.dropped, ["name"]);
});

Deno.test("postman written loop: reads in a counted loop are sent in Newman's order, each its own turn's checks", async () => {
  const seen: string[] = [];
  const names = ["", "one", "two", "three"];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const path = new URL(req.url).pathname;
    seen.push(`${req.method} ${path}`);
    const id = Number(path.split("/")[2]);
    if (id) return Response.json({ id, name: names[id] ?? "many" });
    return Response.json([{ id: 1, name: "one" }, { id: 2, name: "two" }]);
  });
  const collection = {
    info: { name: "Written loops", schema: V21 },
    variable: [{ key: "baseUrl", value: `http://127.0.0.1:${server.addr.port}` }],
    item: [
      {
        name: "List",
        event: [{
          listen: "test",
          script: {
            exec: [
              "pm.test('every key', function () {",
              "  let keys = ['id', 'name'];",
              "  for (const item of pm.response.json()) { for (const key of keys) { pm.expect(item[key]).to.not.eql(undefined); } }",
              "});",
            ],
          },
        }],
        request: { method: "GET", url: "{{baseUrl}}/items", header: [] },
      },
      {
        name: "One",
        event: [{
          listen: "test",
          script: {
            exec: [
              "for (let i = 1; i < 4; i++) {",
              "  pm.sendRequest(pm.collectionVariables.get('baseUrl') + '/items/' + i, function (err, res) {",
              "    let want;",
              "    switch (i) { case 1: want = 'one'; break; case 2: want = 'two'; break; default: want = 'three'; }",
              "    pm.test(`item ${i} is ${want}`, () => pm.expect(res.json().name).to.eql(want));",
              "  });",
              "}",
            ],
          },
        }],
        request: { method: "GET", url: "{{baseUrl}}/items/2", header: [] },
      },
      {
        name: "Listed",
        event: [{
          listen: "test",
          script: {
            exec: [
              "pm.test('each listed name', function () {",
              "  const wanted = ['one', 'two'];",
              "  for (let i = 1; i <= 2; i++) {",
              "    pm.sendRequest(pm.collectionVariables.get('baseUrl') + '/items/' + i, function (err, res) {",
              "      switch (i) { case 1: pm.expect(res.json().name).to.eql(wanted[0]); break;",
              "        case 2: pm.expect(res.json().name).to.eql(wanted[1]); break; }",
              "    });",
              "  }",
              "});",
            ],
          },
        }],
        request: { method: "GET", url: "{{baseUrl}}/items/3", header: [] },
      },
    ],
  };
  const dir = await Deno.makeTempDir();
  try {
    const file = `${dir}/c.json`;
    await Deno.writeTextFile(file, JSON.stringify(collection));
    const newman = await runNewman(file);
    assert.deepEqual([newman.requests, newman.assertions, newman.failedAssertions], [8, 5, 0]);
    // Newman issues a script's reads at once, so they may reach the server in another order
    // under load: each script's reads are compared as a set, its own request first.
    const byNewman = seen.splice(0);
    const turns = ["GET /items", "GET /items/2", "GET /items/1", "GET /items/2", "GET /items/3"];
    const order = [...turns, "GET /items/3", "GET /items/1", "GET /items/2"];
    const grouped = (l: string[]) => [l.slice(0, 2), l.slice(2, 5).sort(), l[5], l.slice(6).sort()];
    assert.deepEqual(grouped(byNewman), grouped(order));
    const converted = await runCli(["convert", "postman", file, "-o", `${dir}/out`]);
    const summary = converted.stdout + converted.stderr;
    assert.equal(converted.code, 0, summary);
    assert.doesNotMatch(summary, /Not converted|[1-9]\d* untranslated/, summary);
    const run = await runCli([
      ...summary.match(/^Run: flowrun (.*)$/m)![1].split(" "),
      "--report-json",
      `${dir}/r.json`,
    ]);
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.deepEqual(seen, order); // the flow sends each turn in its loop's order
    const report = JSON.parse(await Deno.readTextFile(`${dir}/r.json`));
    const checks = report.flows[0].steps.flatMap((s: { assertions: { name?: string }[] }) =>
      s.assertions
    );
    const named = checks.map((a: { message: string }) => a.message.split(":")[0]).slice(-5);
    assert.deepEqual(named, [
      "item 1 is one",
      "item 2 is two",
      "item 3 is three",
      "$.json.name",
      "$.json.name",
    ]);
    assert.equal(report.totals.assertions.failed, 0);
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});

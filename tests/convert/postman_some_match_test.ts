/**
 * `list.some(fn)` kept in a boolean and compared with `true` or `false` by an equality word
 * (`pm.expect(found).to.eql(true)`), with a predicate of several members
 * (`u.id === wanted.id && u.name === wanted.name`), and asserted false (the deleted element is
 * gone): seen in a public Express API's own Newman suite, whose two read-back checks were left
 * as comments. chai's `eql(true)` is `.true` (strict equality with `true`), so a condition
 * compared so is the condition; some element matching every member is a JSONPath filter that
 * selects something (`exists: true`), and none matching is the same filter selecting nothing.
 * The run gives Newman's verdicts, an empty list included.
 */
import assert from "node:assert/strict";
import { translateScript } from "../../lib/convert/postman/script/translate.ts";
import type { Sym } from "../../lib/convert/postman/script/sym.ts";
import { runCollection } from "../support/postman_run.ts";

const V21 = "https://schema.getpostman.com/json/collection/v2.1.0/collection.json";
const variable = (name: string): Sym => ({ k: "var", name, expr: `\${vars.${name}}` });
const conds = (src: string) => {
  const t = translateScript(src, variable);
  assert.deepEqual(t.untranslated, [], src);
  return t.checks.map((c) => "cond" in c ? c.cond : c);
};

Deno.test("postman some: a condition compared with true by an equality word is the condition", () => {
  for (const word of ["eql", "equal", "eq", "equals"]) {
    assert.deepEqual(
      conds(
        `const rows = pm.response.json();\npm.expect(rows.some(r => r.id === 4)).to.${word}(true);`,
      ),
      [{ path: "$.json[*].id", op: "contains", value: 4 }],
      word,
    );
  }
});

Deno.test("postman some: several members of one element are one filter that selects something", () => {
  const src = [
    "const wanted = { id: 4, name: 'Ada', on: true };",
    "const rows = pm.response.json();",
    "const found = rows.some(function (r) {",
    "  return r.id === wanted.id && wanted.name === r.name && r.on === wanted.on;",
    "});",
    "pm.test('there', function () { pm.expect(found).to.eql(true); });",
  ].join("\n");
  assert.deepEqual(conds(src), [{
    path: "$.json[?@.id == 4 && @.name == 'Ada' && @.on == true]",
    op: "exists",
    value: true,
  }]);
  assert.deepEqual(conds(src.replace("to.eql(true)", "to.be.false")), [{
    path: "$.json[?@.id == 4 && @.name == 'Ada' && @.on == true]",
    op: "exists",
    value: false,
  }]);
});

Deno.test("postman some: no element holding a value is the filter selecting nothing", () => {
  for (
    const check of [
      "pm.expect(gone).to.eql(false)",
      "pm.expect(gone).to.be.false",
      "pm.expect(gone).to.not.equal(true)",
      "pm.expect(!gone).to.be.true",
    ]
  ) {
    const src = `const id = 4;\nconst rows = pm.response.json();\n` +
      `const gone = rows.some(function (r) { return r.id === id; });\n${check};`;
    assert.deepEqual(
      conds(src),
      [{ path: "$.json[?@.id == 4]", op: "exists", value: false }],
      check,
    );
  }
});

Deno.test("postman some: what a filter cannot say stays a comment", () => {
  for (
    const src of [
      // A loose comparison, a variable's value inside the filter, another operator.
      "pm.expect(pm.response.json().some(r => r.id == 4 && r.n === 1)).to.be.true;",
      "pm.expect(pm.response.json().some(r => r.id === 4 && r.n === pm.environment.get('n'))).to.be.true;",
      "pm.expect(pm.response.json().some(r => r.id === 4 || r.n === 1)).to.be.true;",
      // A variable's value compared alone: `contains` of it, which has no negation.
      "pm.expect(pm.response.json().some(r => r.id === pm.environment.get('n'))).to.be.false;",
      // eql of something other than a boolean on a condition.
      "pm.expect(pm.response.json().some(r => r.id === 4)).to.eql(1);",
    ]
  ) {
    const t = translateScript(src, variable);
    assert.equal(t.translated, 0, src);
    assert.equal(t.untranslated.length, 1, src);
  }
});

Deno.test("postman some: the converted checks pass and fail where Newman's do", async () => {
  let lists: unknown[][] = [
    [{ id: 4, name: "Ada", on: true }],
    [{ id: 4, name: "Bob", on: true }, { id: 5, name: "Ada", on: true }],
    [],
  ];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, () => {
    const body = lists[0];
    lists = lists.slice(1);
    return Response.json(body);
  });
  const dir = await Deno.makeTempDir();
  try {
    const test = [
      "const wanted = { id: 4, name: 'Ada', on: true };",
      "const rows = pm.response.json();",
      "const found = rows.some(function (r) {",
      "  return r.id === wanted.id && r.name === wanted.name && r.on === wanted.on;",
      "});",
      "pm.test('found', function () { pm.expect(found).to.eql(true); });",
      "const five = rows.some(r => r.id === 5);",
      "pm.test('no five', function () { pm.expect(five).to.eql(false); });",
    ];
    const item = (name: string) => ({
      name,
      event: [{ listen: "test", script: { exec: test } }],
      request: { method: "GET", url: "{{baseUrl}}/rows" },
    });
    const report = await runCollection({
      info: { name: "Some", schema: V21 },
      variable: [{ key: "baseUrl", value: `http://127.0.0.1:${server.addr.port}` }],
      item: [item("one"), item("split"), item("empty")],
    }, dir);
    const failed = report.flows[0].steps.map((
      s: { assertions: { passed: boolean; name: string }[] },
    ) => s.assertions.filter((a) => !a.passed).map((a) => a.name));
    // The second list has id 4 and name "Ada" on two elements, none with both, and has a 5:
    // both fail there, as `some` does; an empty list has no match and no 5.
    assert.deepEqual(failed, [[], ["found", "no five"], ["found"]]);
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});

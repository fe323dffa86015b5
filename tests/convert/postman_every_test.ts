/**
 * `pm.expect(json.data.every(p => p.deleted_status === false)).to.be.true`: a check that every
 * element of a response list satisfies a predicate, written as one boolean (seen in a public
 * Express API's own Newman suite). It said what a loop of checks over the list says
 * (`json.data.forEach(p => pm.expect(p.deleted_status === false).to.be.true)`), which is
 * translated as a group over every element, yet it was left as a comment; so was
 * `p.name.includes(pm.environment.get("name"))`, a text holding a variable's value, where
 * `to.include(pm.environment.get("name"))` is translated. Both are now, and the run gives
 * the verdict Newman gives: a list with one element that fails fails.
 */
import assert from "node:assert/strict";
import { translateScript } from "../../lib/convert/postman/script/translate.ts";
import type { Sym } from "../../lib/convert/postman/script/sym.ts";
import { runCollection } from "../support/postman_run.ts";

const V21 = "https://schema.getpostman.com/json/collection/v2.1.0/collection.json";
const variable = (name: string): Sym => ({ k: "var", name, expr: `\${vars.${name}}` });

Deno.test("postman every: pm.expect(list.every(fn)).to.be.true is a group over every element", () => {
  for (
    const src of [
      "const json = pm.response.json();\npm.expect(json.data.every(p => p.deleted_status === false)).to.be.true;",
      "pm.expect(pm.response.json().data.every(function (p) { return p.deleted_status === false; })).to.eql(true);",
      "const json = pm.response.json();\npm.test('all', () => { pm.expect(json.data.every((p) => p.deleted_status === false)).to.equal(true); });",
    ]
  ) {
    const t = translateScript(src, variable);
    assert.deepEqual(t.untranslated, [], src);
    assert.equal(t.translated, 1, src);
    const [group] = t.checks;
    assert.ok(group && "at" in group, JSON.stringify(t.checks));
    assert.equal(group.at, "$.json.data[*]");
    assert.deepEqual(
      group.checks.map((c) => "cond" in c ? c.cond : c),
      [{ path: "$.deleted_status", op: "equals", value: false }],
    );
  }
});

Deno.test("postman every: a text's includes of a variable's value is a contains check", () => {
  const t = translateScript(
    "const json = pm.response.json();\npm.expect(json.data.every(p => p.name.includes(pm.environment.get('name')))).to.be.true;",
    variable,
  );
  assert.deepEqual(t.untranslated, []);
  const [group] = t.checks;
  assert.ok(group && "at" in group);
  assert.deepEqual(
    group.checks.map((c) => "cond" in c ? c.cond : c),
    [{ path: "$.name", op: "contains", value: "${vars.name}" }],
  );
});

Deno.test("postman every: what else a call on the list says stays a comment", () => {
  for (
    const src of [
      "pm.expect(pm.response.json().data.every(p => p.deleted_status === false)).to.be.false;",
      "pm.expect(pm.response.json().data.every(p => p.n === pm.response.json().first)).to.be.true;",
      "pm.expect(pm.response.json().data.every(p => p.deleted_status === false, 1)).to.be.true;",
    ]
  ) {
    const t = translateScript(src, variable);
    assert.equal(t.translated, 0, src);
    assert.equal(t.untranslated.length, 1, src);
  }
});

Deno.test("postman every: the converted check passes and fails where Newman's does", async () => {
  let lists = [[{ name: "Headphones", deleted: false }], [{ name: "Headphones", deleted: false }, {
    name: "Laptop",
    deleted: true,
  }], []];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, () => {
    const data = lists[0];
    lists = lists.slice(1);
    return Response.json({ data });
  });
  const dir = await Deno.makeTempDir();
  try {
    const test = [
      "const json = pm.response.json();",
      "pm.test('none deleted', () => pm.expect(json.data.every(p => p.deleted === false)).to.be.true);",
      "pm.test('all named', () => pm.expect(json.data.every(p => p.name.includes(pm.collectionVariables.get('part')))).to.be.true);",
      "pm.test('one headphones', () => pm.expect(json.data.some(p => p.name === 'Headphones')).to.be.true);",
    ];
    const item = (name: string) => ({
      name,
      event: [{ listen: "test", script: { exec: test } }],
      request: { method: "GET", url: "{{baseUrl}}/products" },
    });
    const report = await runCollection({
      info: { name: "Every", schema: V21 },
      variable: [
        { key: "baseUrl", value: `http://127.0.0.1:${server.addr.port}` },
        { key: "part", value: "phone" },
      ],
      item: [item("first"), item("second"), item("empty")],
    }, dir);
    const failed = report.flows[0].steps.map((
      s: { assertions: { passed: boolean; name: string }[] },
    ) => s.assertions.filter((a) => !a.passed).map((a) => a.name));
    // The second list holds a deleted "Laptop", whose name does not hold "phone": both fail
    // there; an empty list passes both, as `[].every(…)` is true, and fails `some`.
    const expected = [[], ["none deleted", "all named"], ["one headphones"]];
    assert.deepEqual(failed.map((f: string[]) => [...new Set(f)]), expected);
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("postman every: list.some(p => p.k === v) is the list of every element's k containing v", () => {
  for (
    const [src, value] of [
      [
        "pm.expect(pm.response.json().data.some(p => p.name === pm.environment.get('name'))).to.be.true;",
        "${vars.name}",
      ],
      [
        "tests['has'] = pm.response.json().data.some(function (p) { return 'Ada' === p.name; });",
        "Ada",
      ],
    ] as const
  ) {
    const t = translateScript(src, variable);
    assert.deepEqual(t.untranslated, [], src);
    assert.deepEqual(
      t.checks.map((c) => "cond" in c ? c.cond : c),
      [{ path: "$.json.data[*].name", op: "contains", value }],
    );
  }
  // A loose ==, another comparison or the element itself: not this, so a comment.
  for (const pred of ["p.n == 5", "p.n > 5", "p === 5"]) {
    const t = translateScript(
      `pm.expect(pm.response.json().data.some(p => ${pred})).to.be.true;`,
      variable,
    );
    assert.equal(t.untranslated.length, 1, pred);
  }
});

/**
 * `pm.environment.set('INITIAL_LIST_LENGTH', json.length)` at a list's first read, then
 * `pm.expect(json.length).to.equal(pm.environment.get('INITIAL_LIST_LENGTH'))` after a create
 * and a delete: a public json-server project's own Newman suite checks so that the list is as
 * long again. Both were comments (a length was no capture, and a length compared only with a
 * number written in the script); now the length is a capture (`as: length`) and the comparison
 * reads it, with the verdicts Newman gives.
 */
import assert from "node:assert/strict";
import { translateScript } from "../../lib/convert/postman/script/translate.ts";
import type { Sym } from "../../lib/convert/postman/script/sym.ts";
import { runCollection } from "../support/postman_run.ts";

const V21 = "https://schema.getpostman.com/json/collection/v2.1.0/collection.json";
const variable = (name: string): Sym => ({ k: "var", name, expr: `\${vars.${name}}` });

Deno.test("postman length kept: a set of a length is a capture as: length", () => {
  const t = translateScript(
    "pm.test('list', () => { const j = pm.response.json(); pm.environment.set('N', j.items.length); });",
    variable,
  );
  assert.deepEqual(t.untranslated, []);
  assert.deepEqual(t.captures.map((c) => [c.name, c.path, c.as]), [[
    "N",
    "$.json.items",
    "length",
  ]]);
});

Deno.test("postman length kept: a length equal to a variable is a length check of its value", () => {
  const t = translateScript(
    "pm.test('same', () => { pm.expect(pm.response.json().length).to.equal(pm.environment.get('N')); });",
    variable,
  );
  assert.deepEqual(t.untranslated, []);
  assert.deepEqual(t.checks.map((c) => "cond" in c ? c.cond : c), [
    { path: "$.json", op: "length", value: "${vars.N}" },
  ]);
  // Not equal, or greater: flowrun has no operator that compares a length with a variable.
  for (const word of ["not.equal", "be.above"]) {
    const other = translateScript(
      `pm.test('x', () => { pm.expect(pm.response.json().length).to.${word}(pm.environment.get('N')); });`,
      variable,
    );
    assert.equal(other.translated, 0, word);
  }
});

Deno.test("postman length kept: the list as long again passes, a longer one fails, as in Newman", async () => {
  const todos: number[] = [1, 2];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    if (req.method === "POST") todos.push(todos.length + 1);
    if (req.method === "DELETE") todos.pop();
    return Response.json(todos.map((id) => ({ id })));
  });
  const dir = await Deno.makeTempDir();
  try {
    const script = (exec: string[]) => [{ listen: "test", script: { exec } }];
    const read = (name: string) => ({
      name,
      event: script([
        "pm.test('as long as before', () => {",
        "    const j = pm.response.json();",
        "    pm.expect(j.length).to.equal(pm.environment.get('INITIAL_LIST_LENGTH'));",
        "});",
      ]),
      request: { method: "GET", url: "{{baseUrl}}/todos" },
    });
    const report = await runCollection({
      info: { name: "Length kept", schema: V21 },
      variable: [{ key: "baseUrl", value: `http://127.0.0.1:${server.addr.port}` }],
      item: [
        {
          name: "first",
          event: script([
            "pm.test('list', () => {",
            "    const j = pm.response.json();",
            "    pm.environment.set('INITIAL_LIST_LENGTH', j.length);",
            "});",
          ]),
          request: { method: "GET", url: "{{baseUrl}}/todos" },
        },
        { name: "create", request: { method: "POST", url: "{{baseUrl}}/todos" } },
        { name: "delete", request: { method: "DELETE", url: "{{baseUrl}}/todos/3" } },
        read("again"),
        { name: "create again", request: { method: "POST", url: "{{baseUrl}}/todos" } },
        read("longer"),
      ],
    }, dir);
    const verdicts = report.flows[0].steps.flatMap((
      s: { assertions: { passed: boolean; name?: string }[] },
    ) => s.assertions.filter((a) => a.name === "as long as before").map((a) => a.passed));
    assert.deepEqual(verdicts, [true, false]);
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});

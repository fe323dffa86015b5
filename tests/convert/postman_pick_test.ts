/**
 * A script that picks one element of a response list to chain its id
 * (`list.find(…)`, `list.filter(…)[0]`) sets a first-match capture; any
 * other pick, and any set flowrun cannot express, is named as dropped, so
 * the summary can say which later requests read it (issue 52, class 4).
 */
import assert from "node:assert/strict";
import { translateScript } from "../../lib/convert/postman/script/translate.ts";
import type { Sym } from "../../lib/convert/postman/script/sym.ts";

const unset = (): Sym => ({ k: "lit", value: undefined });
const translate = (source: string) =>
  translateScript(
    source,
    (n) => n === "name" ? { k: "var", name: n, expr: "${vars.name}" } : unset(),
  );

Deno.test("postman pick: find and filter()[0] with equalities to literals are first-match captures", () => {
  const cases: [string, string][] = [
    [
      "pm.environment.set('id', pm.response.json().items.find(x => x.kind === 'b').id);",
      "$.json.items[?@.kind == 'b'].id",
    ],
    [
      "var d = pm.response.json(); pm.collectionVariables.set('id', d.data.filter(function (p) { return 'Aside' == p.name && p.meta.open === true; })[0].id);",
      "$.json.data[?@.name == 'Aside' && @.meta.open == true].id",
    ],
    [
      "const page = pm.response.json().find(p => p.n === 3 && p['a-b'] === \"it's\");\npm.globals.set('pid', page.id);",
      "$.json[?@.n == 3 && @['a-b'] == 'it\\'s'].id",
    ],
  ];
  for (const [source, path] of cases) {
    const t = translate(source);
    assert.deepEqual(t.captures.map((c) => ({ path: c.path, first: c.first })), [{
      path,
      first: true,
    }], source);
    assert.deepEqual(t.dropped, [], source);
    assert.deepEqual(t.untranslated, [], source);
  }
});

Deno.test("postman pick: a pick or value flowrun cannot express is dropped by name, never set to another value", () => {
  const cases = [
    // A predicate that reads a variable, a comparison other than equality, the whole filtered list.
    "pm.environment.set('id', pm.response.json().find(x => x.id === pm.environment.get('name')).id);",
    "pm.environment.set('id', pm.response.json().find(x => x.n > 3).id);",
    "pm.environment.set('id', pm.response.json().filter(x => x.k === 'a'));",
    "pm.environment.set('id', pm.response.json().filter(x => x.k === 'a')[1].id);",
    // A computed value.
    "pm.environment.set('id', pm.environment.get('name').toUpperCase());",
    "pm.environment.set('id', pm.response.json().a + pm.response.json().b);",
  ];
  for (const source of cases) {
    const t = translate(source);
    assert.deepEqual(t.captures, [], source);
    assert.deepEqual(t.sets, [], source);
    assert.deepEqual(t.dropped, ["id"], source);
    assert.equal(t.untranslated.length > 0, true, source);
  }
});

Deno.test("postman pick: text joined from a variable and literals is the variable's value, also before the request", () => {
  const t = translate(
    "pm.environment.set('label', 'user-' + pm.environment.get('name') + '-' + 2);",
  );
  assert.deepEqual(t.sets, [
    { name: "label", value: "user-${vars.name}-2", kind: "expr", scope: "environment" },
  ]);
  assert.deepEqual(t.captures, []);
  const joined = translate("pm.environment.set('auth', 'Bearer ' + pm.response.json().token);");
  assert.deepEqual(joined.captures.map((c) => [c.name, c.path, c.of]), [
    ["auth_part2", "$.json.token", "auth"],
  ]);
  assert.equal(joined.sets[0].kind, "step");
});

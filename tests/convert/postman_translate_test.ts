/**
 * The script idioms `convert postman` translates, one test each, in the
 * pm.* API and the legacy sandbox; and what it leaves as a comment.
 */
import assert from "node:assert/strict";
import { type CheckItem, translateScript } from "../../lib/convert/postman/script/translate.ts";
import type { Sym } from "../../lib/convert/postman/script/sym.ts";

const unset = (): Sym => ({ k: "lit", value: undefined });
const conds = (items: CheckItem[]) => items.map((i) => ("cond" in i ? i.cond : i));

function one(source: string) {
  const t = translateScript(
    source,
    (n) => n === "id" ? { k: "var", name: n, expr: "${vars.id}" } : unset(),
  );
  return t;
}

Deno.test("postman translate: status checks in both APIs", () => {
  for (
    const src of [
      "pm.test('s', function () { pm.response.to.have.status(201); });",
      "tests['s'] = responseCode.code === 201;",
      "pm.expect(pm.response.code).to.equal(201);",
    ]
  ) {
    const t = one(src);
    assert.deepEqual(conds(t.checks), [{ path: "$.status", op: "equals", value: 201 }], src);
    assert.equal(t.translated, 1);
  }
  // chai-postman's `ok` is 200 exactly; any 2xx is `success`.
  assert.deepEqual(conds(one("pm.response.to.be.ok;").checks), [
    { path: "$.status", op: "equals", value: 200 },
  ]);
  assert.deepEqual(conds(one("pm.response.to.be.success;").checks), [
    { path: "$.status", op: "gte", value: 200 },
    { path: "$.status", op: "lt", value: 300 },
  ]);
});

Deno.test("postman translate: property existence and type", () => {
  const t = one(
    "var j = JSON.parse(responseBody); var u = j.user || {};\n" +
      "tests['a'] = u.hasOwnProperty('email');\n" +
      "tests['b'] = Number.isInteger(j.count);\n" +
      "tests['c'] = Array.isArray(u.tags);\n" +
      "tests['d'] = typeof u.bio === 'string';\n" +
      "pm.expect(pm.response.json()).to.have.property('token');\n" +
      "pm.expect(pm.response.json().name).to.be.a('string');",
  );
  assert.deepEqual(conds(t.checks), [
    { path: "$.json.user.email", op: "exists", value: true },
    { path: "$.json.count", op: "type", value: "integer" },
    { path: "$.json.user.tags", op: "type", value: "array" },
    { path: "$.json.user.bio", op: "type", value: "string" },
    { path: "$.json.token", op: "exists", value: true },
    { path: "$.json.name", op: "type", value: "string" },
  ]);
  assert.equal(t.untranslatedAssertions, 0);
});

Deno.test("postman translate: equality, include, array length, header, response time", () => {
  const t = one(
    "const b = pm.response.json();\n" +
      "pm.expect(b.name).to.eql('ann');\n" +
      "pm.expect(b.id).to.equal(pm.environment.get('id'));\n" +
      "pm.expect(b.tags).to.include('x');\n" +
      "pm.expect(b.items).to.have.lengthOf(3);\n" +
      "tests['n'] = b.items.length === 3;\n" +
      "pm.response.to.have.header('Content-Type');\n" +
      "pm.expect(pm.response.headers.get('X-Id')).to.eql('7');\n" +
      "pm.expect(pm.response.responseTime).to.be.below(500);\n" +
      "tests['t'] = responseTime < 800;",
  );
  assert.deepEqual(conds(t.checks), [
    { path: "$.json.name", op: "equals", value: "ann" },
    { path: "$.json.id", op: "equals", value: "${vars.id}" },
    { path: "$.json.tags", op: "contains", value: "x" },
    { path: "$.json.items", op: "length", value: 3 },
    { path: "$.json.items", op: "length", value: 3 },
    { path: "$.headers['content-type']", op: "exists", value: true },
    { path: "$.headers['x-id']", op: "equals", value: "7" },
    { path: "$.duration_ms", op: "lt", value: 500 },
    { path: "$.duration_ms", op: "lt", value: 800 },
  ]);
});

Deno.test("postman translate: variables set from the response are captures, set outright are values", () => {
  const t = one(
    "var d = JSON.parse(responseBody);\n" +
      "pm.environment.set('token', d.token);\n" +
      "pm.collectionVariables.set('uid', pm.response.json().user.id);\n" +
      "postman.setEnvironmentVariable('slug', d.article.slug);\n" +
      "pm.globals.set('mode', 'fast');",
  );
  assert.deepEqual(t.captures, [
    // Each in the scope its setter names: a getter of another scope reads `undefined` (scopes.ts).
    { name: "token", path: "$.json.token", scope: "environment" },
    { name: "uid", path: "$.json.user.id", scope: "collection" },
    { name: "slug", path: "$.json.article.slug", scope: "environment" },
  ]);
  assert.deepEqual(t.sets, [{ name: "mode", value: "fast", kind: "text", scope: "global" }]);
});

Deno.test("postman translate: an if on the response is a check group; on an unset variable it is decided now", () => {
  const t = one(
    "if (responseCode.code === 200) { var j = JSON.parse(responseBody);\n" +
      "  if (j.items.length) { tests['first'] = j.items[0].hasOwnProperty('id'); }\n" +
      "  else { tests['none'] = j.count === 0; } }\n" +
      "if (!(environment.isIntegrationTest)) { tests['x'] = responseCode.code === 200; }",
  );
  const [group, plain] = t.checks;
  assert.ok("if" in group);
  assert.deepEqual(group.if, [{ path: "$.status", op: "equals", value: 200 }]);
  const inner = group.checks[0];
  assert.ok("if" in inner);
  assert.deepEqual(inner.if, [{ path: "$.json.items[0]", op: "exists", value: true }]);
  assert.deepEqual(conds(inner.else), [{ path: "$.json.count", op: "equals", value: 0 }]);
  assert.deepEqual(plain, { cond: { path: "$.status", op: "equals", value: 200 }, name: "x" });
});

Deno.test("postman translate: what is not understood stays, line by line, and is counted", () => {
  const t = one(
    "pm.test('schema', () => { pm.response.to.have.jsonSchema(schema); });\n" +
      "postman.setNextRequest(next);\n" +
      "tests['odd'] = pm.globals.get('a') + 1 > 2;",
  );
  assert.equal(t.translated, 0);
  assert.equal(t.untranslatedAssertions, 2);
  assert.deepEqual(t.untranslated, [
    "pm.response.to.have.jsonSchema(schema);",
    "postman.setNextRequest(next);",
    "tests['odd'] = pm.globals.get('a') + 1 > 2;",
  ]);
});

Deno.test("postman translate: a script that does not parse, is too long or too deep is kept whole", () => {
  const broken = one("tests['a'] = responseCode.code === 200;\nif (");
  assert.equal(broken.translated, 0);
  assert.equal(broken.untranslatedAssertions, 1);
  assert.match(broken.untranslated[0], /not translated: it does not parse/);
  const long = one(`tests['a'] = responseCode.code === 200; // ${"x".repeat(70_000)}`);
  assert.match(long.untranslated[0], /longer than 65536/);
  const deep = one(`tests['a'] = ${"(".repeat(5000)}1${")".repeat(5000)};`);
  assert.equal(deep.translated, 0);
  assert.equal(deep.untranslatedAssertions, 1);
});

Deno.test("postman translate: pm.variables.replaceIn of one placeholder reads the variable", () => {
  const t = one("pm.expect(pm.response.json().id).to.eql(pm.variables.replaceIn('{{id}}'));");
  assert.deepEqual(conds(t.checks), [{ path: "$.json.id", op: "equals", value: "${vars.id}" }]);
  // Words beside a placeholder: Newman's text with the value in its place (replace_joined.ts).
  const mixed = one("pm.expect(pm.response.json().id).to.eql(pm.variables.replaceIn('a-{{id}}'));");
  assert.deepEqual(conds(mixed.checks), [{
    path: "$.json.id",
    op: "equals",
    value: "a-${vars.id}",
  }]);
  // A placeholder nothing defines stays as written in Newman's text: not said here.
  const unknown = one(
    "pm.expect(pm.response.json().id).to.eql(pm.variables.replaceIn('a-{{other}}'));",
  );
  assert.equal(unknown.translated, 0);
  assert.equal(unknown.untranslatedAssertions, 1);
});

Deno.test("postman translate: setNextRequest that repeats, stops or jumps ahead is said; others stay", () => {
  const poll = translateScript(
    "var j = pm.response.json();\nif (j.state !== 'done') { postman.setNextRequest(pm.info.requestName); }",
    unset,
    "Poll",
  );
  assert.deepEqual(poll.next, {
    kind: "repeat",
    while: [{ path: "$.json.state", op: "notEquals", value: "done" }],
  });
  assert.deepEqual(translateScript("postman.setNextRequest(null);", unset, "A").next, {
    kind: "stop",
  });
  assert.deepEqual(translateScript("pm.execution.setNextRequest('Last');", unset, "A").next, {
    kind: "jump",
    target: "Last",
  });
  const onStatus = translateScript(
    "if (pm.response.code === 404) { postman.setNextRequest('Create'); }",
    unset,
    "A",
  );
  assert.deepEqual(onStatus.next, {
    kind: "jump",
    target: "Create",
    when: { path: "$.status", op: "equals", value: 404 },
  });
  const conditional = translateScript(
    "if (pm.response.json().missing) { postman.setNextRequest('Other'); }",
    unset,
    "A",
  );
  assert.equal(conditional.next, undefined);
  assert.deepEqual(conditional.untranslated, ["postman.setNextRequest('Other');"]);
});

Deno.test("postman translate: JSON schema checks (jsonSchema, tv4) become a schema check when both drafts read it alike", () => {
  const t = one(
    "var schema = { $schema: 'http://json-schema.org/draft-04/schema#', type: 'object', required: ['id'], properties: { id: { type: 'integer' } } };\n" +
      "pm.test('schema', () => pm.response.to.have.jsonSchema(schema));\n" +
      "tests['tv4'] = tv4.validate(JSON.parse(responseBody), { type: 'object' });\n" +
      "pm.expect(tv4.validate(pm.response.json(), { type: 'array' })).to.be.true;\n" +
      "pm.response.to.have.jsonSchema({ type: 'number', exclusiveMinimum: true, minimum: 0 });",
  );
  assert.deepEqual(conds(t.checks), [
    {
      path: "$.json",
      op: "schema",
      value: { type: "object", required: ["id"], properties: { id: { type: "integer" } } },
    },
    { path: "$.json", op: "schema", value: { type: "object" } },
    { path: "$.json", op: "schema", value: { type: "array" } },
  ]);
  assert.equal(t.translated, 3);
  assert.equal(t.untranslatedAssertions, 1);
});

Deno.test("postman translate: checks in a loop over a response list are a group over every element", () => {
  for (
    const src of [
      "var j = pm.response.json();\nj.items.forEach(function (item) { pm.expect(item.id).to.be.a('number'); tests['n'] = item.hasOwnProperty('name'); });",
      "for (const item of pm.response.json().items) { pm.expect(item.id).to.be.a('number'); tests['n'] = item.hasOwnProperty('name'); }",
      "_.each(pm.response.json().items, (item) => { pm.expect(item.id).to.be.a('number'); tests['n'] = item.hasOwnProperty('name'); });",
    ]
  ) {
    const t = one(src);
    assert.deepEqual(t.checks, [{
      at: "$.json.items[*]",
      checks: [
        { cond: { path: "$.id", op: "type", value: "number" } },
        { cond: { path: "$.name", op: "exists", value: true }, name: "n" },
      ],
    }], src);
    assert.equal(t.translated, 2);
  }
  const mixed = one(
    "pm.response.json().items.forEach((item) => { pm.expect(item.id).to.eql(pm.response.json().first); });",
  );
  assert.deepEqual([mixed.translated, mixed.untranslatedAssertions, mixed.checks.length], [
    0,
    1,
    0,
  ]);
  assert.match(
    mixed.untranslated.join("\n"),
    /pm\.expect\(item\.id\)\.to\.eql\(pm\.response\.json\(\)\.first\)/,
  );
  // A check on the whole response inside the loop: the loop stays as written.
  const outside = one(
    "pm.response.json().items.forEach((item) => { pm.response.to.have.status(200); });",
  );
  assert.deepEqual([outside.translated, outside.untranslatedAssertions, outside.checks.length], [
    0,
    1,
    0,
  ]);
  assert.match(outside.untranslated[0], /^pm\.response\.json\(\)\.items\.forEach/);
});

Deno.test("postman translate: status by reason phrase, and not.empty", () => {
  assert.deepEqual(conds(one("pm.response.to.have.status('Created');").checks), [
    { path: "$.status", op: "equals", value: 201 },
  ]);
  assert.deepEqual(conds(one("pm.expect(pm.response.json().name).to.not.be.empty;").checks), [
    { path: "$.json.name", op: "notEquals", value: "" },
    { path: "$.json.name", op: "notEquals", value: [] },
    { path: "$.json.name", op: "notEquals", value: {} },
  ]);
});

Deno.test("postman translate: a value compared with the variable just set from it is the check that it is there", () => {
  const t = one(
    "var j = JSON.parse(responseBody);\npm.globals.set('token', j.user.token);\n" +
      "tests['set'] = pm.globals.get('token') === j.user.token;\n" +
      // By precedence: the global just set (`pm.collectionVariables.get` would read `undefined`).
      "var token = pm.variables.get('token');\npm.expect(j.user.token).to.eql(token);",
  );
  assert.deepEqual(conds(t.checks), [
    { path: "$.json.user.token", op: "exists", value: true },
    { path: "$.json.user.token", op: "exists", value: true },
  ]);
  assert.equal(t.untranslatedAssertions, 0);
});

Deno.test("postman translate: cookies in the jar (pm.cookies), and pm.response.to.not…", () => {
  assert.deepEqual(conds(one("pm.expect(pm.cookies.has('sid')).to.be.true;").checks), [
    { path: "$.jar.sid", op: "exists", value: true },
  ]);
  assert.deepEqual(conds(one("pm.expect(pm.cookies.get('theme')).to.eql('dark');").checks), [
    { path: "$.jar.theme", op: "equals", value: "dark" },
  ]);
  assert.deepEqual(conds(one("pm.response.to.not.have.header('X-Debug');").checks), [
    { path: "$.headers['x-debug']", op: "exists", value: false },
  ]);
  assert.deepEqual(conds(one("pm.response.to.not.have.status(500);").checks), [
    { path: "$.status", op: "notEquals", value: 500 },
  ]);
  assert.deepEqual(conds(one("pm.response.to.not.be.ok;").checks), [
    { path: "$.status", op: "notEquals", value: 200 },
  ]);
  assert.equal(one("pm.response.to.not.be.success;").translated, 0);
});

Deno.test("postman translate: indexOf of a text holding ':' is a contains check (it threw)", () => {
  const src = (needle: string) =>
    `pm.test("x", function () { pm.expect(pm.response.json().a.indexOf(${needle}) !== -1).to.be.true; });`;
  assert.deepEqual(conds(one(src('"a:b"')).checks), [
    { path: "$.json.a", op: "contains", value: "a:b" },
  ]);
  assert.deepEqual(conds(one(src('"b"')).checks), [{
    path: "$.json.a",
    op: "contains",
    value: "b",
  }]);
});

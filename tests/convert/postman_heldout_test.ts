/**
 * What converting public collections the converter was not built from
 * showed (tests/fixtures/postman/README.md, "Held out"): Portman's
 * generated suites (optional chaining around every capture, JSON Schemas
 * taken from OpenAPI with `example`, `readOnly` and `x-…` keywords; a suite
 * in their style is written here, contract-suite.postman_collection.json) and the
 * legacy sandbox as grafana/postman-to-k6's example collections write it
 * (`String.prototype.has`, `if (tests["…"] = …)`).
 */
import assert from "node:assert/strict";
import { parse } from "yaml";
import { convertPostman, formatPostmanSummary } from "../../lib/convert/postman/mod.ts";
import { type CheckItem, translateScript } from "../../lib/convert/postman/script/translate.ts";
import type { Sym } from "../../lib/convert/postman/script/sym.ts";

const unset = (): Sym => ({ k: "lit", value: undefined });
const conds = (items: CheckItem[]) => items.map((i) => ("cond" in i ? i.cond : i));
const fixture = (name: string) =>
  Deno.readTextFileSync(new URL(`../fixtures/postman/${name}`, import.meta.url));

Deno.test("postman held out: optional chaining reads the response as plain members do", () => {
  const t = translateScript(
    "let jsonData = {};\n" +
      "try {jsonData = pm.response.json();}catch(e){}\n" +
      "const _resDataId = jsonData?.data?.id;\n" +
      "if (_resDataId !== undefined) {\n" +
      '   pm.collectionVariables.set("leadsAdd.id", jsonData.data.id);\n' +
      "} else {\n" +
      "   console.log('INFO - Unable to assign variable {{leadsAdd.id}}');\n" +
      "};\n" +
      'const _resCount = jsonData?.["@count"];\n' +
      'pm.test("count", function() { pm.expect(_resCount).to.eql(2); });\n' +
      "if (jsonData?.data?.[0]?.id) {\n" +
      '  pm.collectionVariables.set("first", jsonData.data[0].id);\n' +
      "}\n" +
      'pm.test("name", () => { pm.expect(pm.response.json()?.data?.name).to.be.a("string"); });',
    unset,
  );
  assert.deepEqual(t.untranslated, []);
  assert.deepEqual(t.captures, [
    {
      name: "leadsAdd.id",
      path: "$.json.data.id",
      guarded: true,
      when: [{ path: "$.json.data.id", op: "exists", value: true }],
      scope: "collection",
    },
    {
      name: "first",
      path: "$.json.data[0].id",
      guarded: true,
      when: [{ path: "$.json.data[0].id", op: "truthy", value: true }],
      scope: "collection",
    },
  ]);
  assert.deepEqual(conds(t.checks), [
    { path: "$.json['@count']", op: "equals", value: 2 },
    { path: "$.json.data.name", op: "type", value: "string" },
  ]);
  assert.equal(t.translated, 2);
});

Deno.test("postman held out: a schema taken from OpenAPI keeps its checks, not its annotations", () => {
  const t = translateScript(
    'const schema = {"x-graphql-type-name":"Lead","type":"object","required":["id"],' +
      '"properties":{"id":{"type":"string","readOnly":true,"example":"12345"},' +
      '"tags":{"type":"array","items":{"type":"string","x-pii":true,"example":"a"},"deprecated":true},' +
      '"note":{"type":["string","null"],"writeOnly":true,"$comment":"free text"}}};\n' +
      'pm.test("Schema is valid", function() {\n' +
      '  pm.response.to.have.jsonSchema(schema,{unknownFormats: ["int32", "int64"]});\n' +
      "});",
    unset,
  );
  assert.deepEqual(t.untranslated, []);
  assert.equal(t.translated, 1);
  assert.deepEqual(conds(t.checks), [{
    path: "$.json",
    op: "schema",
    value: {
      type: "object",
      required: ["id"],
      properties: {
        id: { type: "string" },
        tags: { type: "array", items: { type: "string" } },
        note: { type: ["string", "null"] },
      },
    },
  }]);
  // A property named like an annotation is a property, kept.
  const named = translateScript(
    'pm.response.to.have.jsonSchema({"type":"object","properties":{"example":{"type":"string"}}});',
    unset,
  );
  assert.deepEqual(conds(named.checks)[0], {
    path: "$.json",
    op: "schema",
    value: { type: "object", properties: { example: { type: "string" } } },
  });
  // A keyword the two drafts read differently still leaves the schema untranslated.
  const nullable = translateScript(
    'pm.response.to.have.jsonSchema({"type":"string","nullable":true,"example":"a"});',
    unset,
  );
  assert.equal(nullable.translated, 0);
  assert.equal(nullable.untranslatedAssertions, 1);
});

Deno.test("postman held out: the legacy sandbox's String.prototype.has is a contains check", () => {
  const t = translateScript(
    "var data = JSON.parse(responseBody);\n" +
      'tests["DigestAuth"] = data.headers.Authorization.has("Digest");',
    unset,
  );
  assert.deepEqual(t.untranslated, []);
  assert.deepEqual(conds(t.checks), [
    { path: "$.json.headers.Authorization", op: "contains", value: "Digest" },
  ]);
});

Deno.test("postman held out: if (tests[…] = …) is the check and the condition of its block", () => {
  const t = translateScript(
    'if(tests["Status code is 200"] = responseCode.code === 200) {\n' +
      "  var search = JSON.parse(responseBody);\n" +
      '  postman.setEnvironmentVariable("since_id", search.search_metadata.max_id_str);\n' +
      '  tests["has statuses"] = search.hasOwnProperty("statuses");\n' +
      "}",
    unset,
  );
  assert.deepEqual(t.untranslated, []);
  assert.equal(t.translated, 2);
  assert.deepEqual(t.captures, [
    {
      name: "since_id",
      path: "$.json.search_metadata.max_id_str",
      guarded: true,
      when: [{ path: "$.status", op: "equals", value: 200 }],
      scope: "environment",
    },
  ]);
  const [status, group] = t.checks;
  assert.deepEqual(conds([status]), [{ path: "$.status", op: "equals", value: 200 }]);
  assert.ok(group && "if" in group, JSON.stringify(t.checks));
  assert.deepEqual(group.if, [{ path: "$.status", op: "equals", value: 200 }]);
  assert.deepEqual(conds(group.checks), [
    { path: "$.json.statuses", op: "exists", value: true },
  ]);
});

Deno.test("postman held out: a suite in Portman's assign-variables style captures the ids its later requests use", () => {
  // Written here in the shape Portman generates (tests/fixtures/postman/README.md).
  const { files, summary } = convertPostman(fixture("contract-suite.postman_collection.json"));
  assert.equal(files.length, 1);
  // deno-lint-ignore no-explicit-any
  const f: any = parse(files[0].text);
  const step = (name: string) => f.steps.find((s: { name: string }) => s.name === name);
  assert.deepEqual(step("create_bin").capture, { binsAdd_id: "$.json.data.id" });
  assert.equal(
    step("get_bin").request.url,
    "${ENV.BASE_URL:-http://localhost:4010}/stock/bins/${steps.create_bin.capture.binsAdd_id}?raw=true",
  );
  // Every step's schema check is carried over (Portman writes one per request).
  for (const s of f.steps) assert.equal(typeof s.assert?.schema, "object", s.name);
  const untranslated = summary.reports.reduce((n, r) => n + r.untranslated, 0);
  assert.equal(untranslated, 0, files[0].text);
});

Deno.test("postman held out: a capture under an if that no request reads is left out, not made to fail the step", () => {
  const guarded = (name: string) =>
    `const _res_${name} = pm.response.json()?.[${JSON.stringify(name)}];\n` +
    `if (_res_${name} !== undefined) { pm.collectionVariables.set(${
      JSON.stringify(name)
    }, _res_${name}); } else { console.log('INFO - Unable to assign variable {{${name}}}'); }`;
  const { files } = convertPostman(JSON.stringify({
    info: {
      name: "T",
      schema: "https://schema.getpostman.com/json/collection/v2.1.0/collection.json",
    },
    item: [
      {
        name: "Create",
        request: { method: "POST", url: "{{baseUrl}}/items" },
        event: [{ listen: "test", script: { exec: [guarded("id"), guarded("count")] } }],
      },
      { name: "Get", request: { method: "GET", url: "{{baseUrl}}/items/{{id}}" } },
    ],
  }));
  // deno-lint-ignore no-explicit-any
  const f: any = parse(files[0].text);
  // `id` is read by the next request: captured (a missing id fails there in Postman too).
  assert.deepEqual(f.steps[0].capture, { id: "$.json.id" });
  assert.match(
    files[0].text,
    /count: set only when the script's condition holds, and no request reads it/,
  );
});

Deno.test("postman held out: typeof x !== 'undefined' is an existence check, and no typeof reaches a path", () => {
  const t = translateScript(
    "var jsonData = pm.response.json();\n" +
      'pm.expect((typeof jsonData.resource !== "undefined")).to.be.true;\n' +
      "tests['has id'] = typeof jsonData.id != 'undefined';\n" +
      "tests['no error'] = typeof jsonData.error === 'undefined';\n" +
      "tests['not a number'] = typeof jsonData.n !== 'number';\n" +
      "tests['third'] = jsonData.name.indexOf('a') === 2;",
    unset,
  );
  assert.deepEqual(conds(t.checks), [
    { path: "$.json.resource", op: "exists", value: true },
    { path: "$.json.id", op: "exists", value: true },
    { path: "$.json.error", op: "exists", value: false },
  ]);
  assert.equal(t.translated, 3);
  assert.equal(t.untranslatedAssertions, 2);
  assert.deepEqual(t.untranslated, [
    "var jsonData = pm.response.json();",
    "tests['not a number'] = typeof jsonData.n !== 'number';",
    "tests['third'] = jsonData.name.indexOf('a') === 2;",
  ]);
});

Deno.test("postman held out: a collection none of whose requests can be sent says so, with no command to run", () => {
  // postman-to-k6's test/material/2.1/tree.json: eleven requests in folders, none with a URL.
  const requests = Array.from({ length: 25 }, (_, i) => ({
    name: `R${i}`,
    request: { method: "GET", header: [], url: { raw: "" } },
  }));
  const { files, summary } = convertPostman(JSON.stringify({
    info: {
      name: "Tree",
      schema: "https://schema.getpostman.com/json/collection/v2.1.0/collection.json",
    },
    item: [{ name: "First", item: requests }],
  }));
  assert.equal(files.length, 0);
  const text = formatPostmanSummary(summary, "out");
  assert.doesNotMatch(text, /^Run:/m);
  assert.match(
    text,
    /^Read 25 requests of the Postman collection "Tree" \(v2\.1\): no flow written, since none can be sent\.$/m,
  );
  assert.doesNotMatch(text, /^Converted/m);
  // The list of requests not converted is bounded, as the list of those not sent is.
  assert.match(text, /First › R19 \(it has no URL\), and 5 more\.$/m);
});

Deno.test("postman held out: an untranslated line keeps the declarations it reads beside it", () => {
  // DannyDainton/All-Things-Postman's Restful Booker: a pre-request script of lodash and moment.
  const t = translateScript(
    "pm.environment.set('total_price', _.random(0, 1000))\n" +
      "const depositPaid = [true, false]\n" +
      "pm.environment.set('depositPaid', _.shuffle(depositPaid)[0])\n" +
      "const moment = require('moment')\n" +
      "const unused = require('lodash')\n" +
      "const items = ['None', 'Breakfast']\n" +
      "pm.environment.set('check_in', JSON.stringify(moment().format('YYYY-MM-DD')))\n" +
      "pm.environment.set('additional_needs', JSON.stringify(_.shuffle(items)[0]))\n" +
      "pm.environment.set('again', JSON.stringify(_.shuffle(items)[1]))\n" +
      "var j = pm.response.json(); pm.environment.set('id', j.id)",
    unset,
  );
  // `_.random(0, 1000)` is a made number (three digits, in its range), and `_.shuffle(list)[0]`
  // of a list the script writes is its first element (one the script could pick): translated.
  assert.deepEqual(t.untranslated, [
    "const moment = require('moment')",
    "pm.environment.set('check_in', JSON.stringify(moment().format('YYYY-MM-DD')))",
    "const items = ['None', 'Breakfast']",
    "pm.environment.set('additional_needs', JSON.stringify(_.shuffle(items)[0]))",
    "pm.environment.set('again', JSON.stringify(_.shuffle(items)[1]))",
  ]);
  assert.deepEqual(t.captures, [{ name: "id", path: "$.json.id", scope: "environment" }]);
});

Deno.test("postman held out: the response words chai-postman has, as it defines them", () => {
  // A collection written as users export them (tests/fixtures/postman/README.md, "Held out"):
  // `pm.response.to.not.be.error` on every request, from its collection-level script.
  const status = (src: string) => conds(translateScript(src, unset).checks);
  const range = (from: number, to: number) => [
    { path: "$.status", op: "gte", value: from },
    { path: "$.status", op: "lt", value: to },
  ];
  // chai-postman's `ok` is 200 exactly (with the reason OK), not any 2xx: that is `success`.
  assert.deepEqual(status("pm.response.to.be.ok;"), [{
    path: "$.status",
    op: "equals",
    value: 200,
  }]);
  assert.deepEqual(status("pm.response.to.be.success;"), range(200, 300));
  assert.deepEqual(status("pm.response.to.be.info;"), range(100, 200));
  assert.deepEqual(status("pm.response.to.be.redirection;"), range(300, 400));
  assert.deepEqual(status("pm.response.to.be.clientError;"), range(400, 500));
  assert.deepEqual(status("pm.response.to.be.serverError;"), range(500, 600));
  assert.deepEqual(status("pm.response.to.be.error;"), range(400, 600));
  assert.deepEqual(status("pm.response.to.not.be.error;"), [{
    path: "$.status",
    op: "lt",
    value: 400,
  }]);
  assert.deepEqual(status("pm.response.to.not.be.serverError;"), [
    { path: "$.status", op: "lt", value: 500 },
  ]);
  for (
    const [word, code] of [
      ["accepted", 202],
      ["withoutContent", 204],
      ["badRequest", 400],
      ["unauthorised", 401],
      ["unauthorized", 401],
      ["forbidden", 403],
      ["notFound", 404],
      ["notAcceptable", 406],
      ["rateLimited", 429],
    ] as const
  ) {
    assert.deepEqual(status(`pm.response.to.be.${word};`), [
      { path: "$.status", op: "equals", value: code },
    ], word);
  }
  assert.deepEqual(status("pm.response.to.not.be.notFound;"), [
    { path: "$.status", op: "notEquals", value: 404 },
  ]);
  // `withBody` wants text in the body: an empty one is not enough.
  assert.deepEqual(status("pm.response.to.have.withBody;"), [
    { path: "$.body", op: "lengthGt", value: 0 },
  ]);
});

Deno.test("postman held out: a line left untranslated inside a loop is shown with the loop it is in", () => {
  const t = translateScript(
    "const body = pm.response.json();\n" +
      "_.each(body.items, (p) => {\n" +
      "  pm.expect(p.price).to.be.a('number');\n" +
      "  pm.expect(p).to.have.any.keys('id', 'name');\n" +
      "});",
    unset,
  );
  assert.equal(t.translated, 1);
  assert.equal(t.untranslatedAssertions, 1);
  assert.deepEqual(t.untranslated, [
    "const body = pm.response.json();",
    "_.each(body.items, (p) => { …",
    "pm.expect(p).to.have.any.keys('id', 'name');",
  ]);
  const oneLine = translateScript(
    "_.each(pm.response.json().items, (p) => { pm.expect(p).to.have.any.keys('id'); });",
    unset,
  );
  assert.deepEqual(oneLine.untranslated, [
    "_.each(pm.response.json().items, (p) => { pm.expect(p).to.have.any.keys('id'); });",
  ]);
});

Deno.test("postman held out: a credential written into a header is not copied into the flow", () => {
  // postman-to-k6's twitter.json keeps a whole OAuth 1.0 Authorization header (token and signature)
  // among its headers; Hyperswitch's sends `Cookie: Cookie_1=value`.
  const { files, summary } = convertPostman(JSON.stringify({
    info: {
      name: "S",
      schema: "https://schema.getpostman.com/json/collection/v2.1.0/collection.json",
    },
    item: [{
      name: "A",
      request: {
        method: "GET",
        header: [
          { key: "Authorization", value: "Bearer abcdef0123456789abcdef" },
          { key: "X-Api-Key", value: "k_9f8e7d6c5b4a" },
          { key: "Cookie", value: "session=0a1b2c3d" },
          { key: "X-Auth-Token", value: "{{token}}" },
          { key: "Accept", value: "application/json" },
        ],
        url: "https://api.example.com/a",
      },
    }, {
      name: "B",
      request: {
        method: "GET",
        header: [{
          key: "Authorization",
          value: 'OAuth oauth_consumer_key="kb", oauth_signature="cH%3D"',
        }],
        url: "https://api.example.com/b",
      },
    }],
  }));
  const text = files[0].text;
  for (
    const secret of ["abcdef0123456789abcdef", "k_9f8e7d6c5b4a", "0a1b2c3d", "oauth_signature"]
  ) {
    assert.ok(!text.includes(secret), `${secret} copied:\n${text}`);
  }
  // deno-lint-ignore no-explicit-any
  const f: any = parse(text);
  assert.deepEqual(f.steps[0].request.headers, {
    Authorization: "Bearer ${ENV.AUTHORIZATION}",
    "X-Api-Key": "${ENV.X_API_KEY}",
    Cookie: "${ENV.COOKIE}",
    "X-Auth-Token": "${ENV.TOKEN}",
    Accept: "application/json",
  });
  assert.equal(f.steps[1].request.headers.Authorization, "OAuth ${ENV.AUTHORIZATION_2}");
  const env = summary.env.map((e) => e.name);
  for (const name of ["AUTHORIZATION", "AUTHORIZATION_2", "X_API_KEY", "COOKIE"]) {
    assert.ok(env.includes(name), env.join());
  }
});

/**
 * Script idioms of the census (docs/converting.md, "Script idioms"): each is
 * translated exactly or named loudly, never left to look like something else.
 * Found by running tests/fixtures/postman/census-httpbin.postman_collection.json
 * with Newman and converted against httpbin (tests/real/httpbin_postman_test.ts):
 *
 * - a pre-request script's set flowrun cannot express (`moment().format("DD/MM/YYYY")`,
 *   `CryptoJS…`, a counter) was not named: the summary called the variable one
 *   "nothing defines, sent as written, as Postman does", which Postman does not;
 * - a set inside a callback (`pm.sendRequest(url, (err, res) => pm.environment.set(…))`)
 *   was dropped the same way;
 * - a variable a header uses as a credential that only such a script sets got the
 *   default `${vars.signature}` (itself), a flow `validate` refused;
 * - lodash's `_.find(list, { kind: "pen" })` and `_.get(json, "a.b")` and
 *   `btoa("user:pass")` of text known now were not translated, though a flow says them.
 */
import assert from "node:assert/strict";
import { parse } from "yaml";
import { convertPostman } from "../../lib/convert/postman/mod.ts";
import { translateScript } from "../../lib/convert/postman/script/translate.ts";

const V21 = "https://schema.getpostman.com/json/collection/v2.1.0/collection.json";
const script = (listen: string, ...exec: string[]) => ({ listen, script: { exec } });

/** A collection of `items` (name, url, events) on one host. */
function collection(items: { name: string; url: string; event: unknown[]; header?: unknown }[]) {
  return JSON.stringify({
    info: { name: "Census", schema: V21 },
    item: items.map((i) => ({
      name: i.name,
      event: i.event,
      request: { method: "GET", url: `http://127.0.0.1:9/${i.url}`, header: i.header ?? [] },
    })),
  });
}

const unknownVar = () => ({ k: "lit" as const, value: undefined });

Deno.test("postman census: a pre-request set flowrun cannot express breaks the chain by name, with the request that reads it", () => {
  const { summary } = convertPostman(collection([{
    name: "Dated",
    url: "items?day={{today}}&n={{counter}}",
    event: [script(
      "prerequest",
      'const moment = require("moment");',
      // A day in another order: a flow writes a date as `YYYY-MM-DD` only (moment_date_test).
      'pm.environment.set("today", moment().format("DD/MM/YYYY"));',
      'pm.environment.set("counter", Number(pm.environment.get("counter") || 0) + 1);',
    )],
  }]));
  assert.deepEqual(
    summary.broken?.map((b) => [b.name, b.by, b.readers]),
    [["today", "Dated", ["Dated"]], ["counter", "Dated", ["Dated"]]],
  );
  assert.deepEqual(summary.unset, []);
});

Deno.test("postman census: a pre-request pm.sendRequest is a step of its own just before, its callback that step's script", () => {
  const withBase = (text: string) =>
    JSON.stringify({
      ...JSON.parse(text),
      variable: [{ key: "base", value: "http://127.0.0.1:9" }],
    });
  const { files, summary } = convertPostman(withBase(collection([{
    name: "Use token",
    url: "items?t={{token}}",
    event: [script(
      "prerequest",
      "pm.sendRequest({",
      // A collection variable: `pm.environment.get` would read `undefined` (Newman's scopes).
      '  url: pm.variables.get("base") + "/login", method: "POST",',
      '  header: { "Content-Type": "application/json" },',
      '  body: { mode: "raw", raw: JSON.stringify({ user: "ann" }) },',
      "}, function (err, res) {",
      "  if (err) { console.log(err); }",
      '  pm.test("logged in", () => pm.expect(res.code).to.eql(200));',
      '  pm.environment.set("token", res.json().token);',
      "});",
    )],
  }])));
  const flow = parse(files.find((f) => f.path.endsWith(".yaml"))!.text);
  assert.deepEqual(flow.steps.map((s: { name: string }) => s.name), [
    "use_token_pm_send_request",
    "use_token",
  ]);
  assert.equal(flow.steps[0].request.method, "POST");
  assert.match(flow.steps[0].request.url, /\/login$/);
  assert.deepEqual(flow.steps[0].capture, { token: "$.json.token" });
  assert.deepEqual(flow.steps[0].assert.json, [{
    path: "$.status",
    equals: 200,
    name: "logged in",
  }]);
  assert.match(
    flow.steps[1].request.url,
    /t=\$\{steps\.use_token_pm_send_request\.capture\.token\}$/,
  );
  assert.deepEqual(summary.broken, []);
  // Logging in once (`if (!token)`, no token yet): sent, marked to be sent once per flow, as
  // Postman finds the token it sets cached after (postman_login_once_test.ts).
  const once = translateScript(
    'if (!pm.environment.get("token")) { pm.sendRequest("http://x/login", (e, r) => pm.environment.set("token", r.json().t)); }',
    unknownVar,
    "Use token",
    true,
  );
  assert.equal(once.sides?.length, 1);
  assert.match(once.sides?.[0].once ?? "", /^pm\.sendRequest\("http:\/\/x\/login"/);
  // In a test script it is sent after the request: a step just after, its callback that step's
  // script (postman_test_side_request_test.ts).
  const after = translateScript(
    'pm.sendRequest("http://x/y", (e, r) => pm.environment.set("late", r.json().a));',
    unknownVar,
  );
  assert.deepEqual(after.sides?.map((s) => s.url), ["http://x/y"]);
  assert.deepEqual(after.dropped, []);
});

Deno.test("postman census: a set in a callback the translator leaves as a comment is named as not translated", () => {
  const t = translateScript(
    [
      'pm.sendRequest(pm.variables.get("base") + "/uuid", function (err, res) {',
      '  pm.environment.set("sideId", res.json().uuid);',
      "});",
    ].join("\n"),
    unknownVar,
  );
  assert.deepEqual(t.dropped, ["sideId"]);
  assert.equal(t.untranslated.length, 3);
});

Deno.test("postman census: a credential only a script sets defaults to its placeholder as written, never to itself", () => {
  const { files } = convertPostman(collection([{
    name: "Signed",
    url: "signed",
    header: [{ key: "X-Signature", value: "{{signature}}" }],
    event: [script(
      "prerequest",
      'const s = CryptoJS.HmacSHA256("a", "b").toString();',
      'pm.environment.set("signature", s);',
    )],
  }]));
  const flow = parse(files.find((f) => f.path.endsWith(".yaml"))!.text);
  assert.equal(flow.vars.signature, "${vars.lbrace}{signature}}");
  assert.equal(flow.vars.lbrace, "{");
});

Deno.test("postman census: lodash's find by a matcher object and get by a path text are captures", () => {
  const t = translateScript(
    [
      "const body = pm.response.json();",
      'const pen = _.find(body.items, { kind: "pen", "in-stock": true });',
      'pm.environment.set("penId", pen.id);',
      'pm.environment.set("owner", _.get(body, "owner.names[0]"));',
      // A native find needs a function: an object there is not lodash's shorthand.
      'pm.environment.set("other", body.items.find({ kind: "pen" }).id);',
    ].join("\n"),
    unknownVar,
  );
  assert.deepEqual(t.captures.map((c) => [c.name, c.path, c.first ?? false]), [
    ["penId", "$.json.items[?@.kind == 'pen' && @['in-stock'] == true].id", true],
    ["owner", "$.json.owner.names[0]", false],
  ]);
  assert.deepEqual(t.dropped, ["other"]);
});

Deno.test("postman census: btoa, atob and encodeURIComponent of text known now are that text", () => {
  const t = translateScript(
    [
      'pm.environment.set("pair", btoa("reader:census"));',
      'pm.environment.set("plain", atob("cmVhZGVyOmNlbnN1cw=="));',
      'pm.environment.set("q", encodeURIComponent("a b&c"));',
      // Not Latin-1: the sandbox's btoa throws, so nothing is set.
      'pm.environment.set("bad", btoa("\u2603"));',
    ].join("\n"),
    unknownVar,
  );
  assert.deepEqual(t.sets.map((s) => [s.name, s.value, s.kind]), [
    ["pair", "cmVhZGVyOmNlbnN1cw==", "text"],
    ["plain", "reader:census", "text"],
    ["q", "a%20b%26c", "text"],
  ]);
  assert.deepEqual(t.dropped, ["bad"]);
});

Deno.test("postman census: own properties, keys, Object.keys(…).length, destructuring and the request's name in a test's name are translated", () => {
  const t = translateScript(
    [
      "const json = pm.response.json();",
      "const { args, meta: m } = json;",
      'pm.test("own", () => pm.expect(json).to.have.ownProperty("method"));',
      'pm.test("include keys", () => pm.expect(json).to.include.keys("args", "url"));',
      'pm.test("all keys", () => pm.expect(args).to.have.all.keys(["a", "b"]));',
      'pm.test("counted", () => pm.expect(Object.keys(args).length).to.eql(2));',
      'pm.test("destructured", () => pm.expect(m.page).to.equal(1));',
      'pm.test("from " + pm.info.requestName, () => pm.expect(args.a).to.eql("x"));',
      // `any.keys` is an or; a negated keys check has no flowrun spelling: both stay comments.
      'pm.test("any keys", () => pm.expect(json).to.have.any.keys("a", "b"));',
      'pm.test("not keys", () => pm.expect(json).to.not.have.keys("a"));',
    ].join("\n"),
    unknownVar,
    "Echo",
  );
  const checks = t.checks.map((c) =>
    "cond" in c ? [c.name, c.cond.path, c.cond.op, c.cond.value] : c
  );
  assert.deepEqual(checks, [
    ["own", "$.json.method", "exists", true],
    ["include keys", "$.json.args", "exists", true],
    ["include keys", "$.json.url", "exists", true],
    ["all keys", "$.json.args.a", "exists", true],
    ["all keys", "$.json.args.b", "exists", true],
    ["all keys", "$.json.args", "length", 2],
    ["counted", "$.json.args", "length", 2],
    ["destructured", "$.json.meta.page", "equals", 1],
    ["from Echo", "$.json.args.a", "equals", "x"],
  ]);
  assert.equal(t.untranslatedAssertions, 2);
});

Deno.test("postman census: jsonBody reads its path as lodash does, a key with a hyphen included", () => {
  const t = translateScript(
    'pm.test("cookie", () => pm.response.to.have.jsonBody("Set-Cookie", "s=1"));\n' +
      'pm.test("first", () => pm.response.to.have.jsonBody("items[0].id"));',
    unknownVar,
  );
  const checks = t.checks.map((c) => "cond" in c ? [c.cond.path, c.cond.op, c.cond.value] : c);
  assert.deepEqual(checks, [
    ["$.json['Set-Cookie']", "equals", "s=1"],
    ["$.json.items[0].id", "exists", true],
  ]);
});

Deno.test("postman census: a value cut from a header, the body or a JSON field by split or match is a pattern capture", () => {
  const t = translateScript(
    [
      'const link = pm.response.headers.get("Location");',
      'pm.environment.set("id", link.split("/").pop());',
      'pm.environment.set("page", link.split("/")[2]);',
      'pm.environment.set("ref", pm.response.headers.get("X-Ref").match(/ref=(\\w+)/)[1]);',
      'pm.environment.set("token", responseBody.match(/token="(.+?)"/)[1]);',
      'pm.environment.set("whole", pm.response.text().match(/ord-\\d+/)[0]);',
      // A JSON field's text: `{path, regex}`, kept while the field is absent (Newman throws).
      'pm.environment.set("host", pm.response.json().url.split("/")[2]);',
      // A match's second group is no first group.
      'pm.environment.set("two", responseBody.match(/(a)(b)/)[2]);',
    ].join("\n"),
    unknownVar,
  );
  assert.deepEqual(t.captures.map((c) => [c.name, c.header, c.regex]), [
    ["id", "location", "([^/]*)$"],
    ["page", "location", "^(?:[^/]*/){2}([^/]*)"],
    ["ref", "x-ref", "ref=(\\w+)"],
    ["token", undefined, 'token="(.+?)"'],
    ["whole", undefined, "(ord-\\d+)"],
    ["host", undefined, "^(?:[^/]*/){2}([^/]*)"],
  ]);
  assert.equal(t.captures.at(-1)?.path, "$.json.url");
  assert.deepEqual(t.dropped, ["two"]);
  const { files } = convertPostman(collection([{
    name: "Created",
    url: "orders",
    event: [
      script(
        "test",
        'pm.environment.set("id", pm.response.headers.get("Location").split("/").pop());',
      ),
    ],
  }, { name: "Read", url: "orders/{{id}}", event: [] }]));
  const flow = parse(files.find((f) => f.path.endsWith(".yaml"))!.text);
  assert.deepEqual(flow.steps[0].capture, { id: { header: "location", regex: "([^/]*)$" } });
  assert.equal(
    flow.steps[1].request.url,
    "${ENV.N_127_0_0_1_URL:-http://127.0.0.1:9}/orders/${steps.created.capture.id}",
  );
});

Deno.test("postman census: a header a pre-request script adds is sent by the step; one added under a condition or computed stays a comment", () => {
  const withRun = (text: string) =>
    JSON.stringify({
      ...JSON.parse(text),
      variable: [{ key: "run", value: "r1" }, { key: "debug", value: "yes" }],
    });
  const { files } = convertPostman(withRun(collection([{
    name: "Sourced",
    url: "items",
    header: [{ key: "Accept", value: "application/json" }],
    event: [script(
      "prerequest",
      'pm.request.headers.add({ key: "X-Source", value: "census" });',
      'pm.request.headers.upsert({ key: "X-Run", value: "run-" + pm.variables.get("run") });',
      'if (pm.variables.get("debug")) { pm.request.headers.add({ key: "X-Debug", value: "1" }); }',
      'pm.request.headers.add({ key: "X-Sig", value: CryptoJS.MD5("a").toString() });',
    )],
  }])));
  const text = files.find((f) => f.path.endsWith(".yaml"))!.text;
  const flow = parse(text);
  assert.deepEqual(flow.steps[0].request.headers, {
    Accept: "application/json",
    "X-Source": "census",
    "X-Run": "run-${vars.run}",
  });
  assert.match(text, /#\s+.*pm\.request\.headers\.add\(\{ key: "X-Debug"/);
  assert.match(text, /#\s+pm\.request\.headers\.add\(\{ key: "X-Sig"/);
});

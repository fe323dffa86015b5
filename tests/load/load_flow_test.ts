import assert from "node:assert/strict";
import { loadFlow, type LoadOptions } from "../../lib/load/load_flow.ts";
import type { Problem } from "../../lib/model/errors.ts";
import { render } from "../../lib/expr/template.ts";
import "../support/engines.ts";

const env = (vars: Record<string, string>) => (name: string) => vars[name];

function problems(text: string, options: LoadOptions = {}): Problem[] {
  const result = loadFlow(text, "f.yaml", options);
  assert.equal(result.flow, undefined, "a flow with problems must not load");
  return result.problems;
}

/** `code@line:column` for compact, exact comparisons. */
function brief(ps: Problem[]): string[] {
  return ps.map((p) => `${p.code}@${p.line}:${p.column}`);
}

const scope = { env: () => undefined, vars: new Map(), steps: new Map(), runId: "r" };

Deno.test("spelling A and spelling B load into the same model", () => {
  const a = loadFlow(
    `name: a
steps:
  - name: login
    request: {method: post, url: "http://x.test/login", body: {user: demo}}
    capture: {token: $.json.token}
    assert:
      status: {anyOf: [200, 201]}
      json: [{path: $.json.token, type: string}]
`,
    "a.yaml",
  );
  const b = loadFlow(
    `name: b
steps:
  - name: login
    request: {method: post, url: "http://x.test/login", body: {user: demo}}
    extract: {token: $.token}
    assert:
      status: {in: [200, 201]}
      jsonpath: [{path: $.token, type: string}]
`,
    "b.yaml",
  );
  assert.deepEqual(a.problems, []);
  assert.deepEqual(b.problems, []);
  const [sa, sb] = [a.flow!.steps[0], b.flow!.steps[0]];
  assert.equal(sa.request.method, "POST");
  assert.deepEqual(render(sa.request.body!, scope), { user: "demo" });
  assert.deepEqual(render(sb.request.body!, scope), { user: "demo" });
  assert.equal((sa.captures[0].from as { path: { root: string } }).path.root, "response");
  assert.equal((sb.captures[0].from as { path: { root: string } }).path.root, "body");
  assert.deepEqual(sa.assert.status?.expected, [200, 201]);
  assert.equal(sa.assert.status?.operator, "anyOf");
  assert.equal(sb.assert.status?.operator, "in");
  assert.deepEqual(sb.assert.status?.expected, [200, 201]);
  assert.equal(sa.assert.paths[0].operator, "type");
  assert.equal(sb.assert.paths[0].path.source, "$.token");
});

Deno.test("depends_on reorders steps stably and references follow the run order", () => {
  const { flow, problems } = loadFlow(
    `name: order
steps:
  - name: get
    depends_on: [login]
    request: {url: "http://x.test/me", headers: {authorization: "Bearer \${steps.login.token}"}}
  - name: login
    request: {url: "http://x.test/login"}
    extract: {token: $.token}
  - name: last
    request: {url: "http://x.test/bye"}
`,
    "f.yaml",
  );
  assert.deepEqual(problems, []);
  assert.deepEqual(flow!.steps.map((s) => s.name), ["login", "get", "last"]);
});

Deno.test("an item with several operators becomes one check per operator, each with its position", () => {
  const { flow } = loadFlow(
    `name: many
steps:
  - name: s
    request: {url: "http://x.test"}
    assert:
      json:
        - {path: $.json.n, gte: 1, lte: 5}
`,
    "f.yaml",
  );
  const checks = flow!.steps[0].assert.paths;
  assert.deepEqual(checks.map((c) => [c.operator, c.line, c.column]), [["gte", 7, 28], [
    "lte",
    7,
    36,
  ]]);
});

Deno.test("YAML syntax errors are reported with their position and a hint", () => {
  const [p] = problems("name: x\nsteps:\n  - name: a\n\trequest: {}\n");
  assert.equal(p.code, "yaml-syntax");
  assert.equal(p.line, 4);
  assert.match(p.message, /^YAML syntax error: /);
  assert.ok(p.hint);
  assert.equal(p.excerpt, "\trequest: {}");
});

Deno.test("duplicate YAML keys are a syntax error", () => {
  const [p] = problems("name: x\nname: y\nsteps: []\n");
  assert.equal(p.code, "yaml-syntax");
  assert.equal(p.line, 2);
  assert.match(p.hint!, /once/);
});

Deno.test("a file that is not a map says what a flow looks like", () => {
  const [p] = problems("- a\n- b\n");
  assert.equal(p.code, "wrong-type");
  assert.equal(p.message, 'A flow file must be a map with "name" and "steps", not a list.');
});

Deno.test("unknown keys with did-you-mean are all reported together, a misspelt required key once", () => {
  const ps = problems(`nmae: x
steps:
  - name: a
    request: {url: "http://x.test", header: {}}
    captures: {id: $.json.id}
    assertions: {}
`);
  assert.deepEqual(brief(ps), [
    "unknown-key@1:1",
    "unknown-key@4:37",
    "unknown-key@5:5",
    "unknown-key@6:5",
  ]);
  const byKey = Object.fromEntries(ps.map((p) => [p.message, p.hint]));
  // "nmae" is the missing "name": one problem, whose hint is the fix.
  assert.equal(byKey['Unknown key "nmae" in the flow.'], 'Did you mean "name"?');
  assert.equal(byKey['Unknown key "header" in "request" of step "a".'], 'Did you mean "headers"?');
  assert.equal(byKey['Unknown key "captures" in step "a".'], 'Did you mean "capture"?');
  assert.equal(byKey['Unknown key "assertions" in step "a".'], 'Did you mean "assert"?');
});

Deno.test("keys brought from other tools get a pointed hint", () => {
  const ps = problems(`name: x
steps:
  - name: a
    url: http://x.test
    request: {url: "http://x.test", json: {a: 1}}
`);
  assert.deepEqual(ps.map((p) => p.hint), [
    'The URL belongs under "request:".',
    'Did you mean "body"? A map body is sent as JSON.',
  ]);
});

Deno.test("top-level x- keys are ignored so they can hold YAML anchors, and merge keys work", () => {
  const { flow, problems } = loadFlow(
    `name: anchors
x-auth: &auth
  authorization: Bearer abc
  accept: application/json
steps:
  - name: a
    request:
      url: http://x.test
      headers:
        <<: *auth
        accept: text/plain
`,
    "f.yaml",
  );
  assert.deepEqual(problems, []);
  const headers = flow!.steps[0].request.headers.map(([n, t]) => [n, t.source]);
  assert.deepEqual(headers, [["authorization", "Bearer abc"], ["accept", "text/plain"]]);
});

Deno.test("alias bombs are cut off with a clear problem", () => {
  const levels = ["a: &a [x, x, x, x, x, x, x, x, x, x]"];
  for (let i = 1; i < 8; i++) {
    const prev = String.fromCharCode(96 + i);
    const cur = String.fromCharCode(97 + i);
    levels.push(`${cur}: &${cur} [${Array(10).fill(`*${prev}`).join(", ")}]`);
  }
  const text = `name: bomb\nx-bomb:\n${
    levels.map((l) => `  ${l}`).join("\n")
  }\nsteps:\n  - name: s\n    request:\n      url: http://x.test\n      body: {all: *h}\n`;
  const ps = problems(text);
  assert.deepEqual(ps.map((p) => p.code), ["yaml-too-large"]);
});

Deno.test("wrong types name what was expected and what was found", () => {
  const ps = problems(`name: [x]
steps:
  - name: a
    request: {url: 42}
    assert:
      status: "200"
      json: {path: $.json.a}
    loop: {max_attempts: 0, until: {status: 200}}
`);
  assert.deepEqual(ps.map((p) => p.message), [
    'Expected "name" to be a non-empty string, got a list.',
    'Expected the url of step "a" to be a string, got the number 42.',
    'Expected "status" to be a status code from 100 to 599 or {anyOf: [...]}, got the string "200".',
    'Expected "json" in "assert" of step "a" to be a list of checks, got a map.',
    'Expected "max_attempts" of step "a" to be an integer of at least 1, got the number 0.',
  ]);
});

Deno.test("operator values are type-checked when constant", () => {
  const ps = problems(`name: x
steps:
  - name: a
    request: {url: "http://x.test"}
    assert:
      json:
        - {path: $.json.a, exists: yes please}
        - {path: $.json.a, type: int}
        - {path: $.json.a, gte: "5"}
        - {path: $.json.a, anyOf: 5}
        - {path: $.json.a, length: -1}
        - {path: $.json.a, matches: "a("}
        - {path: $.json.a}
`);
  assert.deepEqual(brief(ps), [
    "wrong-type@7:36",
    "wrong-type@8:34",
    "wrong-type@9:33",
    "wrong-type@10:35",
    "wrong-type@11:36",
    "bad-regex@12:37",
    "missing-key@13:11",
  ]);
  assert.equal(ps[1].hint, 'Did you mean "integer"?');
  assert.match(ps[5].message, /^Invalid regular expression "a\(": /);
  assert.equal(ps[6].message, 'The check of "$.json.a" has no operator.');
});

Deno.test("malformed JSONPath is a load error at the exact column", () => {
  const ps = problems(`name: x
steps:
  - name: a
    request: {url: "http://x.test"}
    extract: {id: "$.items[?@.x = 1]"}
    capture: {token: $.token}
`);
  assert.deepEqual(brief(ps), ["bad-path@5:33", "bad-path@6:23"]);
  assert.equal(
    ps[0].message,
    `Invalid JSONPath "$.items[?@.x = 1]": unexpected filter selector token '='.`,
  );
  assert.equal(ps[1].message, 'Path "$.token" does not start at $.json, $.status or $.headers.');
  assert.match(ps[1].hint!, /"\$\.json\.token"/);
});

Deno.test("both filter spellings are accepted", () => {
  const { problems } = loadFlow(
    `name: x
steps:
  - name: a
    request: {url: "http://x.test"}
    assert:
      jsonpath:
        - {path: "$.items[?(@.price < 10)].id", exists: true}
        - {path: "$.items[?@.price < 10].id", exists: true}
`,
    "f.yaml",
  );
  assert.deepEqual(problems, []);
});

Deno.test("duplicate step names point at the first one", () => {
  const ps = problems(`name: x
steps:
  - name: a
    request: {url: "http://x.test"}
  - name: a
    request: {url: "http://x.test"}
`);
  assert.deepEqual(brief(ps), ["duplicate-step@5:11"]);
  assert.equal(ps[0].hint, 'Step names must be unique in a flow; the first "a" is at line 3.');
});

Deno.test("references to unknown steps, later steps, own captures and missing captures", () => {
  const ps = problems(`name: x
steps:
  - name: login
    request: {url: "http://x.test"}
    extract: {token: $.token}
  - name: use
    request:
      url: "http://x.test/\${steps.logn.token}/\${steps.later.id}/\${steps.use.x}/\${steps.login.tokn}/\${steps.login.capture.other}"
  - name: later
    request: {url: "http://x.test"}
    extract: {id: $.id}
`);
  assert.deepEqual(ps.map((p) => [p.code, p.hint]), [
    ["unknown-step", 'Did you mean "login"?'],
    ["later-step", 'List "later" first, or add depends_on: [later] to step "use".'],
    ["later-step", "Values are captured after the response arrives; use them in a later step."],
    ["unknown-capture", 'Did you mean "token"?'],
    ["unknown-capture", "It captures: token."],
  ]);
  // Columns point at each "${" inside the quoted URL.
  assert.deepEqual(ps.map((p) => p.column), [27, 47, 65, 80, 100]);
});

Deno.test("depends_on cycles and unknown names are reported", () => {
  const ps = problems(`name: x
steps:
  - name: a
    depends_on: [b]
    request: {url: "http://x.test"}
  - name: b
    depends_on: [a, c]
    request: {url: "http://x.test"}
`);
  assert.deepEqual(ps.map((p) => p.code), ["dependency-cycle", "unknown-step"]);
  assert.equal(ps[0].message, "The depends_on of these steps form a cycle: a → b → a.");
  assert.equal(ps[1].message, 'Step "b" depends on unknown step "c".');
});

Deno.test("unset environment variables are reported unless they have a fallback", () => {
  const text = `name: x
vars:
  base: \${ENV.BASE_URL}
  port: \${ENV.PORT:-8080}
steps:
  - name: a
    request: {url: "\${vars.base}:\${vars.port}/\${API_KEY}"}
`;
  const ps = problems(text, { env: env({}) });
  assert.deepEqual(ps.map((p) => [p.code, p.line, p.column]), [["unset-env", 3, 9], [
    "unknown-name",
    7,
    47,
  ]]);
  assert.equal(
    ps[0].hint,
    "Set it before running (export BASE_URL=…), or give a fallback: ${ENV.BASE_URL:-value}.",
  );
  assert.deepEqual(
    loadFlow(text, "f.yaml", { env: env({ BASE_URL: "http://h", API_KEY: "k" }) }).problems,
    [],
  );
  // validate --no-env: the environment of the machine running the check does not matter.
  assert.deepEqual(loadFlow(text, "f.yaml", { checkEnv: false }).problems, []);
});

Deno.test("vars are checked in order, and run parameters count as vars", () => {
  const ps = problems(`name: x
vars:
  a: \${vars.b}
  b: one
  RUN_ID: two
steps:
  - name: s
    request: {url: "http://x.test/\${vars.c}/\${vars.bb}/\${vars.b}"}
`);
  assert.deepEqual(ps.map((p) => [p.code, p.message]), [
    ["unknown-var", 'Var "b" is used before it is defined (in "${vars.b}").'],
    ["bad-name", '"RUN_ID" is reserved and cannot be a var name.'],
    ["unknown-var", 'Unknown var "c" in "${vars.c}".'],
    ["unknown-var", 'Unknown var "bb" in "${vars.bb}".'],
  ]);
  assert.equal(ps[3].hint, 'Did you mean "${vars.b}"?');
  const withParam = loadFlow(
    `name: x\nsteps:\n  - name: s\n    request: {url: "http://x.test/\${vars.c}"}\n`,
    "f.yaml",
    { params: new Map([["c", "3"]]) },
  );
  assert.deepEqual(withParam.problems, []);
});

Deno.test("vars cannot use step captures", () => {
  const ps = problems(`name: x
vars:
  t: \${steps.login.token}
steps:
  - name: login
    request: {url: "http://x.test"}
    extract: {token: $.token}
`);
  assert.deepEqual(ps.map((p) => p.code), ["step-in-var"]);
});

Deno.test("malformed expressions, URLs, methods and headers are load errors", () => {
  const ps = problems(`name: x
steps:
  - name: a
    request:
      method: "GE T"
      url: "http://x.test/\${vars.a"
  - name: b
    request:
      url: "/relative"
      headers: {Accept: a, accept: b, "bad header": c}
  - name: c
    request: {url: "http://x.test/\${RANDOM.HEX_0}"}
`);
  assert.deepEqual(brief(ps), [
    "bad-method@5:15",
    "bad-expression@6:27",
    "bad-url@9:12",
    "duplicate-header@10:28",
    "bad-header@10:39",
    "bad-expression@12:35",
  ]);
});

Deno.test("a loop must be bounded and have a condition", () => {
  const ps = problems(`name: x
steps:
  - name: a
    request: {url: "http://x.test"}
    loop: {sleep_ms: 10, until: {}}
  - name: b
    request: {url: "http://x.test"}
    loop: {max_attempts: 3, interval: 5, until: {json: [{path: $.json.s, equals: ok}]}}
`);
  assert.deepEqual(ps.map((p) => [p.code, p.message]), [
    ["missing-key", 'Missing key "max_attempts" in "loop" of step "a".'],
    ["missing-key", '"loop" of step "a" has no condition in "until".'],
    ["unknown-key", 'Unknown key "interval" in "loop" of step "b".'],
  ]);
  assert.equal(ps[0].hint, 'Polling must be bounded: add "max_attempts: 10".');
});

Deno.test("problems carry the source line for display", () => {
  const [p] = problems(
    `name: x\nsteps:\n  - name: a\n    request: {url: "http://x.test"}\n    extracts: {}\n`,
  );
  assert.equal(p.excerpt, "    extracts: {}");
  assert.equal(p.length, 8);
});

Deno.test("empty vars, capture, extract and headers sections are allowed", () => {
  const { flow, problems } = loadFlow(
    `name: empty
vars:
steps:
  - name: s
    request:
      url: http://x.test
      headers:
    capture:
    extract:
`,
    "f.yaml",
  );
  assert.deepEqual(problems, []);
  assert.deepEqual(flow!.vars, []);
  assert.deepEqual(flow!.steps[0].captures, []);
  assert.deepEqual(flow!.steps[0].request.headers, []);
});
